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

const ACTIVE = 'active';
const STAYED = 'stayed';
const FROZEN = 'frozen';
const BUSTED = 'busted';

const FLIP7_SIZE = 7;
const HIT_OR_STAY = Object.freeze(['hit', 'stay']);

/** Thrown where the round ends at once; never escapes the game loop. */
const ROUND_OVER = Object.freeze({ roundOver: true });

/** Something this engine does not implement: a ruleset, an option value, a card. */
class Unsupported extends Error {}

/** A request the rules do not allow: a bad deck, an illegal choice, a missing reshuffle order. */
class RulesError extends Error {}

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

const cardCache = new Map();

function canonicalText(text) {
  const stripped = text.trim();
  const upper = stripped.toUpperCase();
  if (Object.hasOwn(ALIASES, upper)) return ALIASES[upper];
  if (Object.hasOwn(ACTION_KINDS, upper) || VENGEANCE_TEXTS.has(upper)) return upper;
  if (/^[Xx×][0-9]+$/.test(stripped)) return 'x' + stripped.slice(1);
  if (stripped.startsWith('÷')) return '/' + stripped.slice(1);
  return stripped.replace(/−/g, '-');
}

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
function card(text) {
  let found = cardCache.get(text);
  if (found !== undefined) return found;
  if (typeof text !== 'string') throw new RulesError(`a card must be a string, got ${JSON.stringify(text)}`);
  const canonical = canonicalText(text);
  found = cardCache.get(canonical);
  if (found === undefined) {
    found = buildCard(canonical);
    cardCache.set(canonical, found);
  }
  cardCache.set(text, found);
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
  if (!Array.isArray(texts)) throw new RulesError(`${where} must be a list of cards`);
  return texts.map((text) => {
    const found = card(text);
    if (found.kind === 'vengeance') throw new Unsupported(`card ${found.text} (in ${where}) is not a card of the base game`);
    return found.text;
  });
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
});

const PRESETS = Object.freeze({
  flip7: Object.freeze({}),
  'flip7-no-deal': Object.freeze({ initial_deal: false }),
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
});

function checkOption(name, value) {
  if (!Object.hasOwn(OPTIONS, name)) throw new Unsupported(`this engine does not implement the ${name} option`);
  const spec = OPTIONS[name];
  if (spec.integer) {
    if (!Number.isInteger(value) || value < 0) throw new RulesError(`option ${name}: expected a whole number >= 0, got ${JSON.stringify(value)}`);
    return;
  }
  if (typeof value !== typeof spec.values[0]) throw new RulesError(`option ${name}: expected a ${typeof spec.values[0]}, got ${JSON.stringify(value)}`);
  if (!spec.values.includes(value)) throw new Unsupported(`this engine does not implement ${name}=${JSON.stringify(value)}`);
}

function parseDeck(deck) {
  if (deck === null || typeof deck !== 'object' || Array.isArray(deck)) throw new RulesError('ruleset.deck must be a table of card: count');
  const composition = new Map();
  for (const [text, count] of Object.entries(deck)) {
    if (!Number.isInteger(count) || count < 0) throw new RulesError(`ruleset.deck.${text}: count must be a whole number >= 0`);
    const [canonical] = baseGameCards([text], 'ruleset.deck');
    if (count) composition.set(canonical, (composition.get(canonical) || 0) + count);
  }
  if (![...composition.keys()].some((text) => card(text).kind === 'number')) throw new RulesError('ruleset.deck has no Number card');
  return composition;
}

/**
 * Read a ruleset as the protocol sends it: a preset name, or `{name, base, description, options, deck}`.
 * @param {string|object} data
 * @returns {{name: string, options: object, deck: Map<string, number>}} options has every option's value.
 * @throws {Unsupported} for a ruleset of another game, an unknown option or an unimplemented value;
 *   {RulesError} for a malformed ruleset.
 */
function rulesFromJson(data) {
  if (typeof data === 'string') data = { name: data, base: data };
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new RulesError('ruleset must be a preset name or a table');
  const base = data.base === undefined ? 'flip7' : data.base;
  const name = data.name === undefined ? base : data.name;
  if ((data.game !== undefined && data.game !== 'flip7') || !Object.hasOwn(PRESETS, base)) {
    throw new Unsupported(`this engine implements the base game (rulesets built on ${Object.keys(PRESETS).join(' or ')}), not ${JSON.stringify(data.game === undefined ? base : data.game)}`);
  }
  const options = { ...DEFAULT_OPTIONS, ...PRESETS[base] };
  const given = data.options === undefined ? {} : data.options;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) throw new RulesError('ruleset.options must be a table');
  for (const [key, value] of Object.entries(given)) {
    checkOption(key, value);
    options[key] = value;
  }
  if (options.players_per_deck < 1) throw new RulesError('option players_per_deck must be at least 1');
  const deck = data.deck === undefined ? parseDeck(FLIP7_DECK) : parseDeck(data.deck);
  return { name, options, deck };
}

// ---- the game ------------------------------------------------------------------------------------

function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const counts = new Map();
  for (const text of a) counts.set(text, (counts.get(text) || 0) + 1);
  for (const text of b) {
    const left = counts.get(text);
    if (!left) return false;
    counts.set(text, left - 1);
  }
  return true;
}

function removeFirst(list, text) {
  list.splice(list.indexOf(text), 1);
}

class Game {
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
    const options = rules.options;
    if (!Number.isInteger(players) || players < 1) throw new RulesError(`players must be a whole number >= 1, got ${JSON.stringify(players)}`);
    if (players < options.min_players) throw new RulesError(`this ruleset needs at least ${options.min_players} players, got ${players}`);
    if (options.max_players && players > options.max_players) throw new RulesError(`this ruleset allows at most ${options.max_players} players, got ${players}`);
    if (!Number.isInteger(dealer) || dealer < 0 || dealer >= players) throw new RulesError(`dealer must be a seat from 0 to ${players - 1}, got ${JSON.stringify(dealer)}`);
    if (!Array.isArray(reshuffles)) throw new RulesError('reshuffles must be a list of card lists');
    this.options = options;
    this.n = players;
    this.dealer = dealer;
    this.pile = baseGameCards(deck, 'deck');
    checkDeck(rules.deck, Math.ceil(players / options.players_per_deck), this.pile);
    this.top = 0; // index of the top card in this.pile
    this.reshuffles = reshuffles.map((order, i) => baseGameCards(order, `reshuffles[${i}]`));
    this.nextReshuffle = 0;
    this.discard = [];
    this.inPlay = [];
    this.round = 0;
    this.totals = new Array(players).fill(0);
    this.seats = [];
    this.order = [];
    this.active = 0;
    this.pending = null;
    this.over = false;
    this.winners = [];
    this.failure = null;
    this.flow = this.play();
    this.advance(undefined);
  }

  /**
   * Make the pending decision and play on to the next one (or to the end of the game).
   * @param {string|number} choice one of `this.pending.options`
   * @throws {RulesError} for an illegal choice (the game is then unchanged) or a failure while playing.
   */
  decide(choice) {
    if (this.failure !== null) throw new RulesError(`the game stopped on an error: ${this.failure}`);
    const pending = this.pending;
    if (pending === null) throw new RulesError('no decision is pending: the game is over');
    if (!pending.options.includes(choice)) {
      throw new RulesError(`${JSON.stringify(choice)} is not a legal choice for the pending ${pending.kind} decision of player ${pending.player}; legal choices: ${pending.options.map((o) => JSON.stringify(o)).join(', ')}`);
    }
    this.advance(choice);
  }

  /**
   * The canonical observation of the protocol (docs/protocol.md).
   * @returns {object}
   */
  observation() {
    const bonus = this.options.flip7_bonus;
    return {
      round: this.round,
      dealer: this.dealer,
      draw_pile: this.pile.length - this.top,
      discard_pile: this.discard.length,
      in_play: this.inPlay.slice(),
      players: this.seats.map((p, seat) => ({
        cards: p.cards.slice(),
        status: p.status,
        round_score: scoreHand(p.cards, p.status === BUSTED, bonus),
        total: this.totals[seat],
      })),
      pending: this.pending,
      over: this.over,
      winners: this.winners.slice(),
    };
  }

  advance(choice) {
    let step;
    try {
      step = this.flow.next(choice);
    } catch (error) {
      this.failure = error.message;
      this.pending = null;
      throw error;
    }
    this.pending = step.done ? null : step.value;
  }

  // ---- rounds ----

  *play() {
    for (;;) {
      this.startRound();
      try {
        yield* this.playRound();
      } catch (signal) {
        if (signal !== ROUND_OVER) throw signal;
      }
      this.endRound();
      if (this.gameEnded()) return;
      this.dealer = (this.dealer + 1) % this.n;
    }
  }

  startRound() {
    const n = this.n;
    const first = this.options.deal_start === 'dealer' ? this.dealer : this.dealer + 1;
    this.round++;
    this.order = [];
    this.seats = [];
    for (let i = 0; i < n; i++) {
      this.order.push((first + i) % n);
      this.seats.push({ cards: [], values: new Set(), status: ACTIVE, hasChance: false });
    }
    this.active = n;
  }

  *playRound() {
    const { order, seats } = this;
    if (this.options.initial_deal) {
      for (const seat of order) {
        const player = seats[seat];
        if (player.status !== ACTIVE) continue;
        // Cards received through a Flip Three before the deal turn allow a Stay instead of the deal card.
        if (player.cards.length && (yield hitOrStay(seat)) === 'stay') {
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

  endRound() {
    const bonus = this.options.flip7_bonus;
    for (let seat = 0; seat < this.n; seat++) {
      const player = this.seats[seat];
      this.totals[seat] += scoreHand(player.cards, player.status === BUSTED, bonus);
      for (const text of player.cards) this.discard.push(text);
      player.cards = [];
    }
    for (const text of this.inPlay) this.discard.push(text);
    this.inPlay = [];
  }

  gameEnded() {
    const top = Math.max(...this.totals);
    if (top < this.options.target_score) return false;
    const leaders = [];
    for (let seat = 0; seat < this.n; seat++) if (this.totals[seat] === top) leaders.push(seat);
    if (leaders.length > 1 && this.options.tie_at_target === 'play_another_round') return false;
    this.over = true;
    this.winners = leaders;
    return true;
  }

  // ---- cards moving ----

  draw() {
    if (this.top === this.pile.length) {
      // Nothing left to draw from, or nothing that could change the round (only Flip Threes and Second
      // Chances, which would cycle through the piles forever): the round ends.
      if (!this.discard.some((text) => PROGRESS_KINDS.has(card(text).kind))) throw ROUND_OVER;
      this.reshuffle();
    }
    return this.pile[this.top++];
  }

  reshuffle() {
    // Only the discard pile is shuffled: table and in-play cards stay where they are.
    if (this.nextReshuffle >= this.reshuffles.length) {
      throw new RulesError(`a reshuffle of the ${this.discard.length}-card discard pile is needed in round ${this.round}, but no reshuffle order is left`);
    }
    const order = this.reshuffles[this.nextReshuffle++];
    if (!sameCards(order, this.discard)) {
      throw new RulesError(`reshuffle order ${this.nextReshuffle - 1} is not a permutation of the discard pile (${this.discard.length} cards: ${this.discard.slice().sort().join(' ')}); got ${order.length} cards: ${order.join(' ')}`);
    }
    this.pile = order;
    this.top = 0;
    this.discard = [];
  }

  setStatus(seat, status) {
    const player = this.seats[seat];
    if (player.status === ACTIVE) this.active--;
    player.status = status;
    if (this.active === 0) throw ROUND_OVER;
  }

  activeSeats() {
    const seats = [];
    for (let seat = 0; seat < this.n; seat++) if (this.seats[seat].status === ACTIVE) seats.push(seat);
    return seats;
  }

  discardInPlay(text) {
    removeFirst(this.inPlay, text);
    this.discard.push(text);
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
        this.inPlay.push(text);
        yield* this.giveChance(seat, text);
      }
    } else if (kind === 'freeze' || kind === 'flip3') {
      this.inPlay.push(text);
      if (setAside !== null) {
        setAside.push(text);
      } else {
        const target = yield* choose(seat, 'target', this.activeSeats(), text);
        yield* this.takeEffect(text, target);
      }
    } else {
      player.cards.push(text); // a modifier
    }
  }

  *giveChance(giver, text) {
    const options = this.activeSeats().filter((seat) => seat !== giver && !this.seats[seat].hasChance);
    if (!options.length) {
      this.discardInPlay(text);
      return;
    }
    const receiver = this.seats[yield* choose(giver, 'give', options, text)];
    removeFirst(this.inPlay, text);
    receiver.cards.push(text);
    receiver.hasChance = true;
  }

  *takeEffect(text, seat) {
    if (text === 'FREEZE') {
      removeFirst(this.inPlay, text);
      this.seats[seat].cards.push(text); // the Freeze stays with the frozen player
      this.setStatus(seat, FROZEN);
    } else {
      yield* this.flipThree(seat);
    }
  }

  *flipThree(target) {
    const player = this.seats[target];
    const setAside = [];
    for (let i = 0; i < 3 && player.status === ACTIVE; i++) yield* this.dealTo(target, 'flip3', setAside);
    this.discardInPlay('FLIP3');
    if (!setAside.length) return;
    if (player.status === ACTIVE || this.options.set_aside_on_bust === 'pass_to_other_active') {
      yield* this.assign(target, setAside);
    } else {
      for (const text of setAside) this.discardInPlay(text);
    }
  }

  /** Set-aside cards are all assigned, in draw order, before any of them takes effect. */
  *assign(chooser, setAside) {
    const receivers = [];
    for (const text of setAside) receivers.push(yield* choose(chooser, 'assign', this.activeSeats(), text));
    for (let i = 0; i < setAside.length; i++) {
      if (this.seats[receivers[i]].status === ACTIVE) yield* this.takeEffect(setAside[i], receivers[i]);
      else this.discardInPlay(setAside[i]);
    }
  }
}

function hitOrStay(seat) {
  return { player: seat, kind: 'hit_or_stay', card: null, options: HIT_OR_STAY };
}

/** A decision: made at once when it has one legal choice, otherwise yielded to the caller of the game. */
function* choose(player, kind, options, cardText) {
  if (options.length === 1) return options[0];
  return yield { player, kind, card: cardText, options };
}

function checkDeck(composition, decks, pile) {
  const expected = [];
  for (let d = 0; d < decks; d++) {
    for (const [text, count] of composition) for (let i = 0; i < count; i++) expected.push(text);
  }
  if (!sameCards(expected, pile)) {
    throw new RulesError(`the deck is not a permutation of the ruleset's deck for ${decks} deck(s): ${pile.length} cards given, ${expected.length} expected`);
  }
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
