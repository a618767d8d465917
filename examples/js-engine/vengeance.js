'use strict';

/**
 * Flip 7: With a Vengeance, as a plain JavaScript module with no I/O.
 *
 * The same interface and the same shape as the base game (flip7.js): a game is straight-line code in
 * generator functions, a decision is a `yield` of `{player, kind, card, options}`, and a decision with one
 * legal choice is made on the spot. A Flip 7 (however it came: a draw, a Steal, a Swap) or nothing left to
 * draw throws ROUND_OVER from wherever it happens. A round whose players have all stayed or busted ends
 * only once the Action being resolved is done, so that check is made by the turn loop, between turns.
 *
 * Cards are their canonical texts: "ZERO", "1".."13", "U7", "L13", "-2".."-10", "/2", "ONEMORE",
 * "FLIP4", "SWAP", "STEAL", "DISCARD". A card reference is `{player, index}`: card `index` of that
 * player's `cards` as the observation shows it.
 */

const {
  ACTIVE, BUSTED, CardGame, FLIP7_SIZE, HIT_OR_STAY, ROUND_OVER, RulesError, STAYED, Unsupported,
  applyOptions, cardList, cardReader, checkOption, choose, isTable, parseDeck, removeFirst, rulesetTable,
} = require('./shared');

const FLIP4_CARDS = 4;
const THIRTEEN = 13;
const HIT_ONLY = Object.freeze(['hit']);

// ---- cards ---------------------------------------------------------------------------------------

const NUMBER = 'number';
const MINUS = 'minus';
const HALVE = 'halve';
const ONE_MORE = 'one_more';
const FLIP_FOUR = 'flip_four';
const SWAP = 'swap';
const STEAL = 'steal';
const DISCARD = 'discard';

const ZERO = 'zero';
const UNLUCKY_7 = 'unlucky7';
const LUCKY_13 = 'lucky13';

const ACTION_TEXTS = { ONEMORE: ONE_MORE, FLIP4: FLIP_FOUR, SWAP, STEAL, DISCARD };
const SPECIAL_TEXTS = { ZERO: [0, ZERO], U7: [7, UNLUCKY_7], L13: [THIRTEEN, LUCKY_13] };
const ALIASES = {
  JUSTONEMORE: 'ONEMORE', 'JUST ONE MORE': 'ONEMORE', 'JUST ONE MORE!': 'ONEMORE',
  'FLIP FOUR': 'FLIP4', 'FLIP FOUR!': 'FLIP4', FLIPFOUR: 'FLIP4',
  'THE ZERO': 'ZERO', 'UNLUCKY 7': 'U7', 'LUCKY 13': 'L13', '÷2': '/2',
};
const NUMBER_PATTERN = /^(0|[1-9][0-9]?)$/;
const MINUS_PATTERN = /^-([1-9][0-9]?)$/;

function buildCard(text) {
  if (Object.hasOwn(ACTION_TEXTS, text)) return { text, kind: ACTION_TEXTS[text], value: 0, special: null };
  if (Object.hasOwn(SPECIAL_TEXTS, text)) {
    const [value, special] = SPECIAL_TEXTS[text];
    return { text, kind: NUMBER, value, special };
  }
  if (NUMBER_PATTERN.test(text)) return { text, kind: NUMBER, value: Number(text), special: null };
  const minus = MINUS_PATTERN.exec(text);
  if (minus) return { text, kind: MINUS, value: Number(minus[1]), special: null };
  if (text === '/2') return { text, kind: HALVE, value: 2, special: null };
  throw new RulesError(`card ${JSON.stringify(text)} is not a card of Flip 7: With a Vengeance; expected a number 0-99, ZERO, U7, L13, -N, /2, ONEMORE, FLIP4, SWAP, STEAL or DISCARD`);
}

/**
 * The Vengeance card written as `text`, read laxly (any case, surrounding spaces, aliases such as
 * "Flip Four" or "÷2").
 * @param {string} text
 * @returns {{text: string, kind: string, value: number, special: string|null}}
 * @throws {RulesError} for a text that names no Vengeance card (a base-game card included).
 */
const card = cardReader({
  aliases: ALIASES,
  isKeyword: (upper) => Object.hasOwn(ACTION_TEXTS, upper) || Object.hasOwn(SPECIAL_TEXTS, upper),
  readsMultiply: false,
  build: (text) => Object.freeze(buildCard(text)),
});

/**
 * The canonical texts of `texts`, each checked to be a Vengeance card.
 * @param {string[]} texts
 * @param {string} where names the list in error messages
 * @returns {string[]}
 * @throws {RulesError} for a value that is not a list of Vengeance cards.
 */
function vengeanceCards(texts, where) {
  return cardList(texts, where, (text) => card(text).text);
}

// ---- rulesets ------------------------------------------------------------------------------------

function numbers(from, to) {
  const out = {};
  for (let v = from; v <= to; v++) out[v] = v;
  return out;
}

const VENGEANCE_DECK = Object.freeze({
  ZERO: 1, ...numbers(1, 13), 7: 6, U7: 1, 13: 12, L13: 1,
  '-2': 1, '-4': 1, '-6': 1, '-8': 1, '-10': 1, '/2': 1,
  ONEMORE: 2, FLIP4: 2, SWAP: 2, STEAL: 2, DISCARD: 2,
});

// Seed 004: no special Number, no Just One More; the counts it leaves open are the reference preset's.
const VENGEANCE_BASIC_DECK = Object.freeze({
  ...numbers(1, 13), '-5': 3, '-10': 2, '/2': 1, STEAL: 2, SWAP: 2, DISCARD: 2, FLIP4: 2,
});

const DEFAULT_OPTIONS = Object.freeze({
  initial_deal: true,
  deal_start: 'left_of_dealer',
  tie_at_target: 'play_another_round',
  target_score: 200,
  flip7_bonus: 15,
  min_players: 3,
  max_players: 0,
  players_per_deck: 18,
  round_limit: 0,
  special_numbers: true,
  flip7_two_13s: 'count_once',
  discard_chooser: 'resolver',
  discard_self: true,
  flip4_self: true,
  steal_discard_cards: 'any',
  stay_minimum: 'none',
  negative_scores: false,
  brutal_mode: false,
  reshuffle_moment: 'when_needed',
  brutal_busted_modifier: 'from_zero',
  brutal_flip7_target: 'any_seat',
  halve_order: 'numbers_then_minus',
});

/** The Vengeance presets: each one's option values (over the defaults) and deck composition. */
const PRESETS = Object.freeze({
  vengeance: Object.freeze({ options: Object.freeze({}), deck: VENGEANCE_DECK }),
  'vengeance-basic': Object.freeze({
    options: Object.freeze({
      min_players: 2,
      max_players: 6,
      special_numbers: false,
      negative_scores: true,
      steal_discard_cards: 'numbers',
      discard_chooser: 'victim',
      discard_self: false,
      flip4_self: false,
      halve_order: 'whole_total',
    }),
    deck: VENGEANCE_BASIC_DECK,
  }),
});

/**
 * The options of a Vengeance ruleset, every value of each implemented: `values` lists the accepted
 * values, and an option with `integer` takes any whole number >= 0 (the same shape as flip7.js's OPTIONS).
 */
const OPTIONS = Object.freeze({
  initial_deal: { values: [true, false] },
  deal_start: { values: ['left_of_dealer', 'dealer'] },
  tie_at_target: { values: ['play_another_round', 'shared_win'] },
  target_score: { integer: true },
  flip7_bonus: { integer: true },
  min_players: { integer: true },
  max_players: { integer: true },
  round_limit: { integer: true },
  players_per_deck: { integer: true },
  special_numbers: { values: [true, false] },
  flip7_two_13s: { values: ['count_once', 'count_both'] },
  discard_chooser: { values: ['resolver', 'victim'] },
  discard_self: { values: [true, false] },
  flip4_self: { values: [true, false] },
  steal_discard_cards: { values: ['any', 'numbers'] },
  stay_minimum: { values: ['none', 'one_card', 'two_numbers'] },
  negative_scores: { values: [false, true] },
  brutal_mode: { values: [false, true] },
  reshuffle_moment: { values: ['when_needed', 'when_emptied'] },
  brutal_busted_modifier: { values: ['from_zero', 'no_effect'] },
  brutal_flip7_target: { values: ['any_seat', 'in_round'] },
  halve_order: { values: ['numbers_then_minus', 'whole_total'] },
});

// The options of the base game only, with their default values. A Vengeance ruleset may list one at that
// value, which changes nothing (a ruleset written out in full does); any other value makes it malformed.
const BASE_GAME_ONLY_DEFAULTS = Object.freeze({
  second_chance_ends_turn: true,
  set_aside_on_bust: 'discard',
  stalled_round: 'end',
  flip3_card_discard: 'after_draws',
  set_aside_resolution: 'assign_all_first',
  deal_after_flip3_cards: 'hit_or_stay',
});

function checkVengeanceOption(name, value) {
  if (Object.hasOwn(BASE_GAME_ONLY_DEFAULTS, name)) {
    if (value === BASE_GAME_ONLY_DEFAULTS[name]) return;
    throw new RulesError(`option ${name} applies to the base game only, not Vengeance (got ${JSON.stringify(value)})`);
  }
  checkOption(OPTIONS, name, value);
}

/**
 * Whether `data` (a ruleset as the protocol sends it) is for this module: a Vengeance preset's name, or
 * a table whose `base` is one.
 * @param {string|object} data
 * @returns {boolean}
 */
function isVengeanceRuleset(data) {
  const base = isTable(data) ? data.base : data;
  return typeof base === 'string' && Object.hasOwn(PRESETS, base);
}

/**
 * Read a Vengeance ruleset as the protocol sends it: a preset name, or `{name, base, description,
 * options, deck}` (as in the reference, `base` defaults to `flip7`).
 * @param {string|object} data
 * @returns {{name: string, options: object, deck: Map<string, number>}} options has every option's value.
 * @throws {Unsupported} for a ruleset of the base game or an unknown option; {RulesError} for a
 *   malformed ruleset (a base-game card or option in a Vengeance ruleset included).
 */
function rulesFromJson(data) {
  data = rulesetTable(data);
  const base = data.base === undefined ? 'flip7' : data.base;
  if (!Object.hasOwn(PRESETS, base)) {
    throw new Unsupported(`ruleset base ${JSON.stringify(base)} is not a Vengeance preset; this module knows ${Object.keys(PRESETS).join(', ')}`);
  }
  if (data.game !== undefined && data.game !== 'vengeance') throw new RulesError(`ruleset.game ${JSON.stringify(data.game)} does not match base ${base} (vengeance)`);
  const name = data.name === undefined ? base : data.name;
  const options = applyOptions({ ...DEFAULT_OPTIONS, ...PRESETS[base].options }, data.options, checkVengeanceOption);
  if (options.max_players && options.max_players < options.min_players) throw new RulesError('option max_players is below min_players');
  const deck = parseDeck(data.deck === undefined ? PRESETS[base].deck : data.deck, card, false);
  return { name, options, deck };
}

// ---- scoring -------------------------------------------------------------------------------------

const DEFAULT_RULES = Object.freeze({ options: { ...DEFAULT_OPTIONS } });

function hasEffect(c, special, options) {
  return c.special === special && options.special_numbers;
}

/** How many values `cards` hold toward the seven different Numbers of a Flip 7. */
function flip7Count(cards, options) {
  const values = new Set();
  let thirteens = 0;
  for (const text of cards) {
    const c = card(text);
    if (c.kind !== NUMBER) continue;
    values.add(c.value);
    if (c.value === THIRTEEN) thirteens++;
  }
  // A Lucky 13 pair is one value, or two under flip7_two_13s = "count_both".
  return values.size + (options.flip7_two_13s === 'count_both' && thirteens > 1 ? 1 : 0);
}

/** `score` halved once per /2, each time rounded down (toward minus infinity: -7 halves to -4). */
function halve(score, halvings) {
  for (let i = 0; i < halvings; i++) score = Math.floor(score / 2);
  return score;
}

/**
 * The round score of a player holding `cards` when a Vengeance round ends.
 *
 * Not busted: the Numbers, the /2 cards and the -N cards combined in the order of option `halve_order`
 * ("numbers_then_minus": the Number sum halved, minus the -N cards, floored at 0, plus the Flip 7 bonus;
 * "whole_total": the Number sum minus the -N cards plus the Flip 7 bonus, then halved), floored at 0
 * unless negative scores are allowed (option negative_scores, or Brutal Mode); a holder of The Zero
 * without a Flip 7 scores 0.
 * Busted: 0, except in Brutal Mode under `brutal_busted_modifier = "from_zero"`, where the Modifiers
 * apply to a base of 0 in the same order, with no bonus, no floor and no effect of The Zero.
 * @param {string[]} cards card texts (read laxly), in any order
 * @param {boolean} busted
 * @param {{options: object}} [rules] from {@link rulesFromJson}; the `vengeance` preset by default
 * @returns {number}
 * @throws {RulesError} for a card that is not a Vengeance card.
 */
function scoreHand(cards, busted, rules = DEFAULT_RULES) {
  const options = rules.options;
  const fromZero = options.brutal_mode && options.brutal_busted_modifier === 'from_zero';
  if (busted && !fromZero) return 0;
  let sum = 0;
  let halvings = 0;
  let minus = 0;
  let zero = false;
  for (const text of cards) {
    const c = card(text);
    if (c.kind === NUMBER) {
      sum += c.value;
      if (hasEffect(c, ZERO, options)) zero = true;
    } else if (c.kind === HALVE) {
      halvings++;
    } else if (c.kind === MINUS) {
      minus += c.value;
    }
  }
  const wholeTotal = options.halve_order === 'whole_total';
  if (busted) return wholeTotal ? halve(0 - minus, halvings) : 0 - minus; // halving a base of 0 leaves 0
  const flip7 = flip7Count(cards, options) >= FLIP7_SIZE;
  const bonus = flip7 ? options.flip7_bonus : 0;
  const floor = (score) => (options.negative_scores || options.brutal_mode ? score : Math.max(0, score));
  const score = wholeTotal ? floor(halve(sum - minus + bonus, halvings)) : floor(halve(sum, halvings) - minus) + bonus;
  return zero && !flip7 ? 0 : score;
}

// ---- card references -----------------------------------------------------------------------------

/** Every pair of `refs` from two different rows, as `[earlier, later]` in the order of `refs`. */
function swapPairs(refs) {
  const pairs = [];
  for (let i = 0; i < refs.length; i++) {
    for (let j = i + 1; j < refs.length; j++) {
      if (refs[i].player !== refs[j].player) pairs.push([refs[i], refs[j]]);
    }
  }
  return pairs;
}

function playersOf(refs) {
  const seats = [];
  for (const ref of refs) if (seats[seats.length - 1] !== ref.player) seats.push(ref.player);
  return seats;
}

/** Equal as JSON values, type by type at every depth (so `true` never passes for seat 1). */
function sameJson(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}

// ---- the game ------------------------------------------------------------------------------------

class VengeanceGame extends CardGame {
  /**
   * Start a game and play it up to its first decision.
   * @param {{options: object, deck: Map<string, number>}} rules from {@link rulesFromJson}
   * @param {number} players
   * @param {number} dealer the first Dealer's seat
   * @param {string[]} deck the whole draw pile, top card first
   * @param {string[][]} [reshuffles] the order, top card first, of each reshuffle the game will need
   * @throws {RulesError} for a bad setup (player count, dealer, a deck that is not the ruleset's).
   */
  constructor(rules, players, dealer, deck, reshuffles = []) {
    super(rules, players, dealer, deck, reshuffles, vengeanceCards);
    this.allSeats = Array.from({ length: players }, (_, seat) => seat);
    this.flip7Seats = [];
    this.brutalTargets = [];
    this.start();
  }

  /** The option of `options` equal to `choice` as JSON. */
  legalOption(options, choice) {
    return options.find((o) => sameJson(o, choice));
  }

  /** A player's round score as it stands (see {@link scoreHand}). */
  roundScore(player) {
    return scoreHand(player.cards, player.status === BUSTED, this.rules);
  }

  // ---- rounds ----

  newSeat() {
    return { cards: [], status: ACTIVE };
  }

  startRound() {
    super.startRound();
    this.flip7Seats = [];
    this.brutalTargets = [];
  }

  /**
   * The deal, then the Hit/Stay rotation. Everything a card sets off is resolved inside the turn that
   * revealed it, so a round with nobody active left ends here, between two turns: an Action still being
   * resolved (held-back cards of a Flip Four, say) always finishes first.
   */
  *playRound() {
    const { order, seats } = this;
    if (this.options.initial_deal) {
      for (const seat of order) {
        if (this.active === 0) return;
        // A player who stayed (through Just One More) or busted before their deal turn gets no card.
        if (seats[seat].status === ACTIVE) yield* this.dealTo(seat, null);
      }
    }
    for (let pos = 0; this.active > 0; pos++) {
      pos = this.nextActive(pos);
      const seat = order[pos];
      const choice = yield* choose(seat, 'hit_or_stay', this.hitOrStayOptions(seat), null);
      if (choice === 'stay') this.setStatus(seat, STAYED);
      else yield* this.dealTo(seat, null);
    }
  }

  nextActive(pos) {
    const n = this.n;
    for (let offset = 0; ; offset++) {
      const index = (pos + offset) % n;
      if (this.seats[this.order[index]].status === ACTIVE) return index;
    }
  }

  hitOrStayOptions(seat) {
    const cards = this.seats[seat].cards;
    const options = this.options;
    if (cards.some((text) => hasEffect(card(text), ZERO, options))) return HIT_ONLY; // The Zero: must Hit
    if (options.stay_minimum === 'one_card' && cards.length === 0) return HIT_ONLY;
    if (options.stay_minimum === 'two_numbers' && cards.filter((text) => card(text).kind === NUMBER).length < 2) return HIT_ONLY;
    return HIT_OR_STAY;
  }

  /** Brutal Mode: each Flip 7 of the round, in order, takes the bonus (own seat) or 15 off another seat. */
  *afterRound() {
    if (!this.options.brutal_mode) return;
    const inRound = this.options.brutal_flip7_target === 'in_round';
    for (const seat of this.flip7Seats) {
      // Under "in_round" only the player's own seat and the players who have not busted can be aimed at.
      const seats = inRound ? this.allSeats.filter((s) => s === seat || this.seats[s].status !== BUSTED) : this.allSeats;
      const target = yield* choose(seat, 'target', seats, null);
      this.brutalTargets.push([seat, target]);
    }
  }

  roundScores() {
    const bonus = this.options.flip7_bonus;
    const scores = super.roundScores();
    for (const [seat, target] of this.brutalTargets) {
      if (target === seat) continue;
      scores[seat] -= bonus;
      scores[target] -= bonus;
    }
    return scores;
  }

  // ---- players and rows ----

  notBusted() {
    const seats = [];
    for (let seat = 0; seat < this.n; seat++) if (this.seats[seat].status !== BUSTED) seats.push(seat);
    return seats;
  }

  /** References to the face-up cards of `seats` (ascending), seat by seat; busted rows are face down. */
  rowRefs(seats, numbersOnly) {
    const refs = [];
    for (const seat of seats) {
      const player = this.seats[seat];
      if (player.status === BUSTED) continue;
      player.cards.forEach((text, index) => {
        if (!numbersOnly || card(text).kind === NUMBER) refs.push({ player: seat, index });
      });
    }
    return refs;
  }

  /** The cards of `seats` that a Steal or a Discard may take. */
  takeableRefs(seats) {
    return this.rowRefs(seats, this.options.steal_discard_cards === 'numbers');
  }

  takeFromRow(ref) {
    return this.seats[ref.player].cards.splice(ref.index, 1)[0];
  }

  /** `seat` receives a face-up card from another row (Steal, Swap), as if dealt it. */
  receive(seat, text) {
    if (card(text).kind === NUMBER) this.placeNumber(seat, text);
    else this.seats[seat].cards.push(text);
  }

  /** `seat` receives a Number card, drawn or from another row: busts, special Numbers and Flip 7 apply. */
  placeNumber(seat, text) {
    const player = this.seats[seat];
    const c = card(text);
    const options = this.options;
    if (hasEffect(c, UNLUCKY_7, options)) {
      // Every other Number and Modifier goes, a 7 included, so the Unlucky 7 itself never busts.
      for (const other of player.cards) this.discard.push(other);
      player.cards = [text];
      return;
    }
    if (this.holdsValue(player.cards, c.value) && !this.luckyPair(player.cards, c)) {
      player.cards.push(text); // the duplicate stays in the row
      this.setStatus(seat, BUSTED);
      return;
    }
    player.cards.push(text);
    if (flip7Count(player.cards, options) >= FLIP7_SIZE) this.flip7Seats.push(seat);
  }

  holdsValue(cards, value) {
    return cards.some((text) => {
      const c = card(text);
      return c.kind === NUMBER && c.value === value;
    });
  }

  /** Whether a 13 may join `cards`: exactly one 13 held, and a Lucky 13 among the two (either order). */
  luckyPair(cards, incoming) {
    if (incoming.value !== THIRTEEN) return false;
    const thirteens = cards.map(card).filter((c) => c.kind === NUMBER && c.value === THIRTEEN);
    if (thirteens.length !== 1) return false;
    return hasEffect(incoming, LUCKY_13, this.options) || hasEffect(thirteens[0], LUCKY_13, this.options);
  }

  endIfFlip7() {
    if (this.flip7Seats.length) throw ROUND_OVER;
  }

  // ---- cards revealed ----

  /**
   * Draw one card for `seat` (deal, Hit, Just One More or Flip Four) and reveal it. `held` collects the
   * Modifiers and Actions of a Flip Four in progress; otherwise they are resolved at once by `seat`.
   */
  *dealTo(seat, held) {
    const text = this.draw();
    if (card(text).kind === NUMBER) {
      this.placeNumber(seat, text);
      this.endIfFlip7();
      return;
    }
    this.inPlay.push(text);
    if (held !== null) held.push(text);
    else yield* this.resolve(seat, text);
  }

  /** Resolve a revealed Modifier or Action (already in play); `seat` makes its choices. */
  *resolve(seat, text) {
    const kind = card(text).kind;
    if (kind === MINUS || kind === HALVE) yield* this.playModifier(seat, text);
    else if (kind === ONE_MORE || kind === FLIP_FOUR) yield* this.aimAction(seat, text);
    else if (kind === STEAL) yield* this.steal(seat, text);
    else if (kind === SWAP) yield* this.swap(seat, text);
    else yield* this.discardAction(seat, text);
  }

  *playModifier(revealer, text) {
    // Alone among the players not busted, the revealer keeps it (a forced choice); Brutal Mode adds the busted.
    const seats = this.options.brutal_mode ? this.allSeats : this.notBusted();
    const target = yield* choose(revealer, 'target', seats, text);
    removeFirst(this.inPlay, text);
    this.seats[target].cards.push(text);
  }

  /** Just One More or Flip Four: the resolver picks its target among the players not busted. */
  *aimAction(resolver, text) {
    const flipFour = card(text).kind === FLIP_FOUR;
    let seats = this.notBusted();
    if (flipFour && !this.options.flip4_self && seats.length > 1) seats = seats.filter((seat) => seat !== resolver);
    const target = yield* choose(resolver, 'target', seats, text);
    if (flipFour) yield* this.flipFour(text, target);
    else yield* this.justOneMore(text, target);
  }

  *justOneMore(text, target) {
    yield* this.dealTo(target, null);
    this.discardInPlay(text);
    // The forced Stay overrides The Zero's must-Hit; a stayed target stays stayed, a busted one busted.
    if (this.seats[target].status === ACTIVE) this.setStatus(target, STAYED);
  }

  *flipFour(text, target) {
    const player = this.seats[target];
    const held = [];
    for (let i = 0; i < FLIP4_CARDS && player.status !== BUSTED; i++) yield* this.dealTo(target, held);
    this.discardInPlay(text);
    // Held-back cards are resolved in draw order, unless the target has busted (then or meanwhile).
    for (const heldText of held) {
      if (player.status === BUSTED) this.discardInPlay(heldText);
      else yield* this.resolve(target, heldText);
    }
  }

  *steal(thief, text) {
    const refs = this.takeableRefs(this.notBusted().filter((seat) => seat !== thief));
    if (!refs.length) {
      this.discardInPlay(text); // no valid target: discarded with no effect
      return;
    }
    const ref = yield* choose(thief, 'card', refs, text);
    this.receive(thief, this.takeFromRow(ref));
    this.discardInPlay(text);
    this.endIfFlip7();
  }

  *swap(resolver, text) {
    const pairs = swapPairs(this.rowRefs(this.notBusted(), false));
    if (!pairs.length) {
      this.discardInPlay(text);
      return;
    }
    const [first, second] = yield* choose(resolver, 'swap', pairs, text);
    const toSecond = this.takeFromRow(first);
    const toFirst = this.takeFromRow(second);
    // Both cards move first, then each receipt takes effect in seat order: both may bust, both may Flip 7.
    this.receive(first.player, toFirst);
    this.receive(second.player, toSecond);
    this.discardInPlay(text);
    this.endIfFlip7();
  }

  *discardAction(resolver, text) {
    let seats = this.notBusted();
    if (!this.options.discard_self) seats = seats.filter((seat) => seat !== resolver);
    const refs = this.takeableRefs(seats);
    if (!refs.length) {
      this.discardInPlay(text);
      return;
    }
    let ref;
    if (this.options.discard_chooser === 'resolver') {
      ref = yield* choose(resolver, 'card', refs, text);
    } else {
      const victim = yield* choose(resolver, 'target', playersOf(refs), text);
      ref = yield* choose(victim, 'card', refs.filter((r) => r.player === victim), text);
    }
    this.discard.push(this.takeFromRow(ref));
    this.discardInPlay(text);
  }
}

module.exports = {
  VengeanceGame,
  OPTIONS,
  PRESETS,
  card,
  isVengeanceRuleset,
  rulesFromJson,
  scoreHand,
  vengeanceCards,
};
