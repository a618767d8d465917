'use strict';

/**
 * Flip 7, the base game, as a plain JavaScript module with no I/O.
 *
 * The game is written as straight-line code in generator functions: a round is a deal loop followed by a
 * Hit/Stay loop, a Flip Three is a loop of three draws, and so on. Wherever a player has to choose, the
 * generator yields the pending decision and is resumed with the choice. A round that ends (no active
 * player left, a Flip 7, nothing left to draw) throws ROUND_OVER from wherever it happens; the game loop
 * catches it and scores the round.
 *
 * Cards are their canonical texts ("7", "+4", "x2", "FREEZE", "FLIP3", "CHANCE"), as in the protocol.
 */

const {
  ACTIVE, BUSTED, CardGame, FLIP7_SIZE, FROZEN, HIT_OR_STAY, ROUND_OVER, RulesError, STAYED, Unsupported,
  applyOptions, cardList, cardReader, checkOption, choose, parseDeck, removeFirst, rulesetTable,
} = require('./shared');

// ---- cards ---------------------------------------------------------------------------------------

const ACTION_KINDS = { FREEZE: 'freeze', FLIP3: 'flip3', CHANCE: 'chance' };
// Cards of Flip 7: With a Vengeance, which have no meaning in the base game.
const VENGEANCE_TEXTS = new Set(['ONEMORE', 'FLIP4', 'SWAP', 'STEAL', 'DISCARD', 'ZERO', 'U7', 'L13']);
const ALIASES = {
  FLIPTHREE: 'FLIP3', 'FLIP THREE': 'FLIP3', FLIP_THREE: 'FLIP3',
  SECONDCHANCE: 'CHANCE', 'SECOND CHANCE': 'CHANCE', SECOND_CHANCE: 'CHANCE',
  JUSTONEMORE: 'ONEMORE', 'JUST ONE MORE': 'ONEMORE', 'JUST ONE MORE!': 'ONEMORE',
  'FLIP FOUR': 'FLIP4', 'FLIP FOUR!': 'FLIP4', FLIPFOUR: 'FLIP4',
  'THE ZERO': 'ZERO', 'UNLUCKY 7': 'U7', 'LUCKY 13': 'L13',
  '÷2': '/2', X2: 'x2', '×2': 'x2',
};
const NUMBER_PATTERN = /^(0|[1-9][0-9]?)$/;
const MODIFIER_PATTERN = /^([+\-x/])([1-9][0-9]?)$/;

/** The kinds of card that can still change a round: anything but a Flip Three or a Second Chance. */
const PROGRESS_KINDS = new Set(['number', 'add', 'multiply', 'freeze']);

function buildCard(text) {
  if (Object.hasOwn(ACTION_KINDS, text)) return { text, kind: ACTION_KINDS[text], value: 0 };
  if (VENGEANCE_TEXTS.has(text)) return { text, kind: 'vengeance', value: 0 };
  if (NUMBER_PATTERN.test(text)) return { text, kind: 'number', value: Number(text) };
  const match = MODIFIER_PATTERN.exec(text);
  if (match) {
    const value = Number(match[2]);
    if (match[1] === '+') return { text, kind: 'add', value };
    if (match[1] === 'x') return { text, kind: 'multiply', value };
    if (match[1] === '-' || value === 2) return { text, kind: 'vengeance', value };
  }
  throw new RulesError(`unknown card ${JSON.stringify(text)}; expected a number 0-99, +N, xN, FREEZE, FLIP3 or CHANCE`);
}

/**
 * The card written as `text`, read laxly (any case, surrounding spaces, aliases such as "Flip Three").
 * @param {string} text
 * @returns {{text: string, kind: string, value: number}} `kind` is number, add, multiply, freeze, flip3,
 *   chance, or vengeance for a card of the other game.
 * @throws {RulesError} if the text names no card.
 */
const card = cardReader({
  aliases: ALIASES,
  isKeyword: (upper) => Object.hasOwn(ACTION_KINDS, upper) || VENGEANCE_TEXTS.has(upper),
  readsMultiply: true,
  build: buildCard,
});

/** The card written as `text`, checked to be a card of the base game. */
function baseGameCard(text, where) {
  const found = card(text);
  if (found.kind === 'vengeance') throw new Unsupported(`card ${found.text} (in ${where}) is not a card of the base game`);
  return found;
}

/**
 * The canonical texts of `texts`, checked to be cards of the base game.
 * @param {string[]} texts
 * @param {string} where names the list in error messages
 * @returns {string[]}
 * @throws {RulesError} for a value that is not a list of cards; {Unsupported} for a Vengeance card.
 */
function baseGameCards(texts, where) {
  return cardList(texts, where, (text) => baseGameCard(text, where).text);
}

// ---- scoring -------------------------------------------------------------------------------------

/**
 * The round score of a player holding `cards` at the end of a round: the sum of the Number cards,
 * multiplied by each xN held, plus the +N cards, plus the bonus for seven different Numbers.
 * @param {string[]} cards canonical card texts
 * @param {boolean} busted a busted player scores 0
 * @param {number} [flip7Bonus=15]
 * @returns {number}
 */
function scoreHand(cards, busted, flip7Bonus = 15) {
  if (busted) return 0;
  let sum = 0;
  let multiplier = 1;
  let adds = 0;
  const values = new Set();
  for (let i = 0; i < cards.length; i++) {
    const c = card(cards[i]);
    if (c.kind === 'number') {
      sum += c.value;
      values.add(c.value);
    } else if (c.kind === 'multiply') {
      multiplier *= c.value;
    } else if (c.kind === 'add') {
      adds += c.value;
    }
  }
  return sum * multiplier + adds + (values.size >= FLIP7_SIZE ? flip7Bonus : 0);
}

// ---- rulesets ------------------------------------------------------------------------------------

const FLIP7_DECK = Object.freeze({
  0: 1, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, 11: 11, 12: 12,
  '+2': 1, '+4': 1, '+6': 1, '+8': 1, '+10': 1, x2: 1, FREEZE: 3, FLIP3: 3, CHANCE: 3,
});

const DEFAULT_OPTIONS = Object.freeze({
  initial_deal: true,
  deal_start: 'left_of_dealer',
  second_chance_ends_turn: true,
  set_aside_on_bust: 'discard',
  tie_at_target: 'play_another_round',
  target_score: 200,
  flip7_bonus: 15,
  min_players: 3,
  max_players: 0,
  players_per_deck: 18,
  reshuffle_moment: 'when_needed',
  stalled_round: 'end',
  flip3_card_discard: 'after_draws',
  set_aside_resolution: 'assign_all_first',
  deal_after_flip3_cards: 'hit_or_stay',
  round_limit: 0,
});

const PRESETS = Object.freeze({
  flip7: Object.freeze({}),
  'flip7-no-deal': Object.freeze({ initial_deal: false }),
  // The official challenge for two players or fewer: 200 points in under 5 rounds.
  'flip7-challenge': Object.freeze({ min_players: 1, max_players: 2, round_limit: 4 }),
});

/** The options this engine implements: `values` lists the accepted values; `integer` takes any whole number >= 0. */
const OPTIONS = Object.freeze({
  initial_deal: { values: [true, false] },
  deal_start: { values: ['left_of_dealer', 'dealer'] },
  second_chance_ends_turn: { values: [true, false] },
  set_aside_on_bust: { values: ['discard', 'pass_to_other_active'] },
  tie_at_target: { values: ['play_another_round', 'shared_win'] },
  target_score: { integer: true },
  flip7_bonus: { integer: true },
  min_players: { integer: true },
  max_players: { integer: true },
  players_per_deck: { integer: true },
  reshuffle_moment: { values: ['when_needed', 'when_emptied'] },
  stalled_round: { values: ['end', 'reshuffle'] },
  flip3_card_discard: { values: ['after_draws', 'after_set_aside'] },
  set_aside_resolution: { values: ['assign_all_first', 'resolve_each'] },
  deal_after_flip3_cards: { values: ['hit_or_stay', 'deal_anyway'] },
  round_limit: { integer: true },
});

/**
 * Read a ruleset as the protocol sends it: a preset name, or `{name, base, description, options, deck}`.
 * @param {string|object} data
 * @returns {{name: string, options: object, deck: Map<string, number>}} options has every option's value.
 * @throws {Unsupported} for a ruleset of another game, an unknown option or an unimplemented value;
 *   {RulesError} for a malformed ruleset.
 */
function rulesFromJson(data) {
  data = rulesetTable(data);
  const base = data.base === undefined ? 'flip7' : data.base;
  const name = data.name === undefined ? base : data.name;
  if ((data.game !== undefined && data.game !== 'flip7') || !Object.hasOwn(PRESETS, base)) {
    throw new Unsupported(`this engine implements the base game (rulesets built on ${Object.keys(PRESETS).join(' or ')}), not ${JSON.stringify(data.game === undefined ? base : data.game)}`);
  }
  const options = applyOptions({ ...DEFAULT_OPTIONS, ...PRESETS[base] }, data.options, (key, value) => checkOption(OPTIONS, key, value));
  const readCard = (text) => baseGameCard(text, 'ruleset.deck');
  const deck = parseDeck(data.deck === undefined ? FLIP7_DECK : data.deck, readCard, true);
  return { name, options, deck };
}

// ---- the game ------------------------------------------------------------------------------------

class Game extends CardGame {
  /**
   * Start a game and play it up to its first decision.
   * @param {{options: object, deck: Map<string, number>}} rules from {@link rulesFromJson}
   * @param {number} players
   * @param {number} dealer the first Dealer's seat
   * @param {string[]} deck the whole draw pile, top card first
   * @param {string[][]} [reshuffles] the order, top card first, of each reshuffle the game will need
   * @throws {RulesError} for a bad setup; {Unsupported} for a card of another game.
   */
  constructor(rules, players, dealer, deck, reshuffles = []) {
    super(rules, players, dealer, deck, reshuffles, baseGameCards);
    this.start();
  }

  /** A player's round score as it stands: 0 if busted. */
  roundScore(player) {
    return scoreHand(player.cards, player.status === BUSTED, this.options.flip7_bonus);
  }

  // ---- rounds ----

  newSeat() {
    return { cards: [], values: new Set(), status: ACTIVE, hasChance: false };
  }

  *playRound() {
    const { order, seats } = this;
    if (this.options.initial_deal) {
      const stayInstead = this.options.deal_after_flip3_cards === 'hit_or_stay';
      for (const seat of order) {
        const player = seats[seat];
        if (player.status !== ACTIVE) continue;
        // Cards received through a Flip Three before the deal turn allow a Stay instead of the deal card.
        if (stayInstead && player.cards.length && (yield hitOrStay(seat)) === 'stay') {
          this.setStatus(seat, STAYED);
          continue;
        }
        yield* this.dealTo(seat, 'deal', null);
      }
    }
    for (let pos = 0; ; pos++) {
      pos = this.nextActive(pos);
      const seat = order[pos];
      // With no card in front of them, Hit is the only choice.
      const choice = seats[seat].cards.length ? yield hitOrStay(seat) : 'hit';
      if (choice === 'stay') this.setStatus(seat, STAYED);
      else yield* this.dealTo(seat, 'hit', null);
    }
  }

  nextActive(pos) {
    const n = this.n;
    for (let offset = 0; offset < n; offset++) {
      const index = (pos + offset) % n;
      if (this.seats[this.order[index]].status === ACTIVE) return index;
    }
    throw ROUND_OVER;
  }

  // ---- cards moving ----

  /**
   * Under `stalled_round = "end"`: nothing in the discard pile can change the round (only Flip Threes and
   * Second Chances, which would cycle through the piles forever).
   */
  stalled() {
    return this.options.stalled_round === 'end' && !this.discard.some((text) => PROGRESS_KINDS.has(card(text).kind));
  }

  setStatus(seat, status) {
    super.setStatus(seat, status);
    if (this.active === 0) throw ROUND_OVER;
  }

  activeSeats() {
    const seats = [];
    for (let seat = 0; seat < this.n; seat++) if (this.seats[seat].status === ACTIVE) seats.push(seat);
    return seats;
  }

  // A card in play is a cell `{text}`, so that one of two equal cards (two Flip Threes, say) leaves
  // `in_play` from its own place.

  inPlayTexts() {
    return this.inPlay.map((cell) => cell.text);
  }

  putInPlay(text) {
    const cell = { text };
    this.inPlay.push(cell);
    return cell;
  }

  takeFromPlay(cell) {
    this.inPlay.splice(this.inPlay.indexOf(cell), 1);
    return cell.text;
  }

  discardCell(cell) {
    this.discard.push(this.takeFromPlay(cell));
  }

  /** Draw one card for `seat` and resolve it; `setAside` collects the actions of a Flip Three in progress. */
  *dealTo(seat, via, setAside) {
    const text = this.draw();
    const { kind, value } = card(text);
    const player = this.seats[seat];
    if (kind === 'number') {
      if (!player.values.has(value)) {
        player.cards.push(text);
        player.values.add(value);
        if (player.values.size >= FLIP7_SIZE) throw ROUND_OVER;
      } else if (player.hasChance) {
        removeFirst(player.cards, 'CHANCE');
        player.hasChance = false;
        this.discard.push(text, 'CHANCE');
        if (via === 'hit' && !this.options.second_chance_ends_turn) yield* this.dealTo(seat, 'replacement', null);
      } else {
        player.cards.push(text); // the duplicate stays in the row
        this.setStatus(seat, BUSTED);
      }
    } else if (kind === 'chance') {
      if (!player.hasChance) {
        player.cards.push(text);
        player.hasChance = true;
      } else {
        yield* this.giveChance(seat, this.putInPlay(text));
      }
    } else if (kind === 'freeze' || kind === 'flip3') {
      const cell = this.putInPlay(text);
      if (setAside !== null) {
        setAside.push(cell);
      } else {
        const target = yield* choose(seat, 'target', this.activeSeats(), text);
        yield* this.takeEffect(cell, target);
      }
    } else {
      player.cards.push(text); // a modifier
    }
  }

  *giveChance(giver, cell) {
    const options = this.activeSeats().filter((seat) => seat !== giver && !this.seats[seat].hasChance);
    if (!options.length) {
      this.discardCell(cell);
      return;
    }
    const receiver = this.seats[yield* choose(giver, 'give', options, cell.text)];
    receiver.cards.push(this.takeFromPlay(cell));
    receiver.hasChance = true;
  }

  /** A Freeze or Flip Three in play takes effect on `seat`. */
  *takeEffect(cell, seat) {
    if (cell.text === 'FREEZE') {
      this.seats[seat].cards.push(this.takeFromPlay(cell)); // the Freeze stays with the frozen player
      this.setStatus(seat, FROZEN);
    } else {
      yield* this.flipThree(seat, cell);
    }
  }

  *flipThree(target, cell) {
    const player = this.seats[target];
    const setAside = [];
    for (let i = 0; i < 3 && player.status === ACTIVE; i++) yield* this.dealTo(target, 'flip3', setAside);
    const assigned = setAside.length > 0 && (player.status === ACTIVE || this.options.set_aside_on_bust === 'pass_to_other_active');
    // Under flip3_card_discard = "after_set_aside" the card stays in play while its set-aside cards act.
    const staysInPlay = assigned && this.options.flip3_card_discard === 'after_set_aside';
    if (!staysInPlay) this.discardCell(cell);
    if (assigned) {
      yield* this.assign(target, setAside);
      if (staysInPlay) this.discardCell(cell);
    } else {
      for (const aside of setAside) this.discardCell(aside);
    }
  }

  /**
   * The set-aside cards of a Flip Three, in draw order: all assigned before any takes effect, or under
   * `set_aside_resolution = "resolve_each"` each taking effect once assigned, before the next is assigned.
   */
  *assign(chooser, setAside) {
    if (this.options.set_aside_resolution === 'resolve_each') {
      for (const cell of setAside) yield* this.takeEffect(cell, yield* choose(chooser, 'assign', this.activeSeats(), cell.text));
      return;
    }
    const receivers = [];
    for (const cell of setAside) receivers.push(yield* choose(chooser, 'assign', this.activeSeats(), cell.text));
    for (let i = 0; i < setAside.length; i++) {
      if (this.seats[receivers[i]].status === ACTIVE) yield* this.takeEffect(setAside[i], receivers[i]);
      else this.discardCell(setAside[i]);
    }
  }
}

function hitOrStay(seat) {
  return { player: seat, kind: 'hit_or_stay', card: null, options: HIT_OR_STAY };
}

module.exports = {
  Game,
  OPTIONS,
  PRESETS,
  RulesError,
  Unsupported,
  baseGameCards,
  card,
  rulesFromJson,
  scoreHand,
};
