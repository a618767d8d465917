'use strict';

/**
 * What the base game (flip7.js) and Flip 7: With a Vengeance (vengeance.js) have in common: the error
 * classes, reading cards, ruleset tables and decks, the draw and discard piles, and the frame of a game
 * (setup checks, decisions, rounds, scoring totals, the observation). Each game's rules stay in its file.
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

/**
 * The reshuffle orders do not fit this game: a reshuffle is needed and no order is left, or the next order
 * is not a permutation of the discard pile. `reshuffle` is the `errored` reply's optional `reshuffle` field
 * (docs/protocol.md): `{problem: 'no_order' | 'not_a_permutation', discard_pile, index}`.
 */
class ReshuffleError extends RulesError {
  constructor(message, reshuffle) {
    super(message);
    this.reshuffle = reshuffle;
  }
}

// ---- cards ---------------------------------------------------------------------------------------

/**
 * A card reader: `card(text)` reads `text` laxly (any case, surrounding spaces, the game's aliases) and
 * returns the card built from its canonical text, the same object for every text of one card.
 * @param {object} spec
 * @param {object} spec.aliases upper-case alias: canonical text
 * @param {function(string): boolean} spec.isKeyword whether an upper-cased text is a canonical keyword
 * @param {boolean} spec.readsMultiply whether "X2" and "×2" read as "x2"
 * @param {function(string): object} spec.build the card of a canonical text; throws for no card
 * @returns {function(string): object}
 */
function cardReader({ aliases, isKeyword, readsMultiply, build }) {
  const cache = new Map();

  function canonicalText(text) {
    const stripped = text.trim();
    const upper = stripped.toUpperCase();
    if (Object.hasOwn(aliases, upper)) return aliases[upper];
    if (isKeyword(upper)) return upper;
    if (readsMultiply && /^[Xx×][0-9]+$/.test(stripped)) return 'x' + stripped.slice(1);
    if (stripped.startsWith('÷')) return '/' + stripped.slice(1);
    return stripped.replace(/−/g, '-');
  }

  return function card(text) {
    let found = cache.get(text);
    if (found !== undefined) return found;
    if (typeof text !== 'string') throw new RulesError(`a card must be a string, got ${JSON.stringify(text)}`);
    const canonical = canonicalText(text);
    found = cache.get(canonical);
    if (found === undefined) {
      found = build(canonical);
      cache.set(canonical, found);
    }
    cache.set(text, found);
    return found;
  };
}

/** `texts`, checked to be a list, each mapped through `read`; `where` names the list in error messages. */
function cardList(texts, where, read) {
  if (!Array.isArray(texts)) throw new RulesError(`${where} must be a list of cards`);
  return texts.map(read);
}

/** Whether `a` and `b` hold the same cards, in any order. */
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

function checkDeck(composition, decks, pile) {
  const expected = [];
  for (let d = 0; d < decks; d++) {
    for (const [text, count] of composition) for (let i = 0; i < count; i++) expected.push(text);
  }
  if (!sameCards(expected, pile)) {
    throw new RulesError(`the deck is not a permutation of the ruleset's deck for ${decks} deck(s): ${pile.length} cards given, ${expected.length} expected`);
  }
}

// ---- rulesets ------------------------------------------------------------------------------------

function isTable(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A ruleset as the protocol sends it, as a table: a preset name stands for `{name, base}`. */
function rulesetTable(data) {
  if (typeof data === 'string') data = { name: data, base: data };
  if (!isTable(data)) throw new RulesError('ruleset must be a preset name or a table');
  return data;
}

/**
 * Check option `name` against `table` (an OPTIONS table: `values` lists the accepted values; `integer`
 * takes any whole number >= 0).
 */
function checkOption(table, name, value) {
  if (!Object.hasOwn(table, name)) throw new Unsupported(`this engine does not implement the ${name} option`);
  const spec = table[name];
  if (spec.integer) {
    if (!Number.isInteger(value) || value < 0) throw new RulesError(`option ${name}: expected a whole number >= 0, got ${JSON.stringify(value)}`);
    return;
  }
  if (typeof value !== typeof spec.values[0]) throw new RulesError(`option ${name}: expected a ${typeof spec.values[0]}, got ${JSON.stringify(value)}`);
  if (!spec.values.includes(value)) throw new Unsupported(`this engine does not implement ${name}=${JSON.stringify(value)}`);
}

/** `options` with the ruleset's `given` options, each passed through `check(name, value)`, set over it. */
function applyOptions(options, given, check) {
  if (given === undefined) given = {};
  if (!isTable(given)) throw new RulesError('ruleset.options must be a table');
  for (const [key, value] of Object.entries(given)) {
    check(key, value);
    options[key] = value;
  }
  if (options.players_per_deck < 1) throw new RulesError('option players_per_deck must be at least 1');
  return options;
}

/**
 * A ruleset's deck table `{card: count}` as a Map from canonical text to count.
 * @param {object} deck
 * @param {function(string): object} readCard the card of a text, checked to belong to the game
 * @param {boolean} mergeRepeats whether two texts of one card add up (otherwise a RulesError)
 * @returns {Map<string, number>}
 */
function parseDeck(deck, readCard, mergeRepeats) {
  if (!isTable(deck)) throw new RulesError('ruleset.deck must be a table of card: count');
  const composition = new Map();
  for (const [text, count] of Object.entries(deck)) {
    if (!Number.isInteger(count) || count < 0) throw new RulesError(`ruleset.deck.${text}: count must be a whole number >= 0`);
    const canonical = readCard(text).text;
    if (!mergeRepeats && composition.has(canonical)) throw new RulesError(`ruleset.deck.${text}: card ${canonical} listed twice`);
    if (count) composition.set(canonical, (composition.get(canonical) || 0) + count);
  }
  if (![...composition.keys()].some((text) => readCard(text).kind === 'number')) throw new RulesError('ruleset.deck has no Number card');
  return composition;
}

// ---- the game ------------------------------------------------------------------------------------

/** A decision: made at once when it has one legal choice, otherwise yielded to the caller of the game. */
function* choose(player, kind, options, cardText) {
  if (options.length === 1) return options[0];
  return yield { player, kind, card: cardText, options };
}

/**
 * The frame of a game, as generator code: a subclass gives `playRound`, `newSeat` and `roundScore(player)`,
 * may add to the other steps, and calls `start()` once its own fields are set.
 */
/** Times the whole deck may be drawn with no decision and no point banked before play counts as endless. */
const STALL_PASSES = 10;

class CardGame {
  /**
   * @param {{options: object, deck: Map<string, number>}} rules
   * @param {number} players
   * @param {number} dealer the first Dealer's seat
   * @param {string[]} deck the whole draw pile, top card first
   * @param {string[][]} reshuffles the order, top card first, of each reshuffle the game will need
   * @param {function(string[], string): string[]} readCards the canonical texts of a list of the game's cards
   */
  constructor(rules, players, dealer, deck, reshuffles, readCards) {
    const options = rules.options;
    if (!Number.isInteger(players) || players < 1) throw new RulesError(`players must be a whole number >= 1, got ${JSON.stringify(players)}`);
    if (players < options.min_players) throw new RulesError(`this ruleset needs at least ${options.min_players} players, got ${players}`);
    if (options.max_players && players > options.max_players) throw new RulesError(`this ruleset allows at most ${options.max_players} players, got ${players}`);
    if (!Number.isInteger(dealer) || dealer < 0 || dealer >= players) throw new RulesError(`dealer must be a seat from 0 to ${players - 1}, got ${JSON.stringify(dealer)}`);
    if (!Array.isArray(reshuffles)) throw new RulesError('reshuffles must be a list of card lists');
    this.rules = rules;
    this.options = options;
    this.n = players;
    this.dealer = dealer;
    this.pile = readCards(deck, 'deck');
    checkDeck(rules.deck, Math.ceil(players / options.players_per_deck), this.pile);
    this.top = 0; // index of the top card in this.pile
    this.reshuffles = reshuffles.map((order, i) => readCards(order, `reshuffles[${i}]`));
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
    // F7-ENDLESS / V-ENDLESS: ten times the whole deck drawn with no decision and no point banked
    this.cycleLimit = STALL_PASSES * Math.max(this.pile.length, 1);
    this.drawsWithoutDecision = 0;
    this.endless = false;
  }

  /** Play up to the first decision. */
  start() {
    this.flow = this.play();
    this.advance(undefined);
  }

  /**
   * Make the pending decision and play on to the next one (or to the end of the game).
   * @param {*} choice one of `this.pending.options`, as `legalOption` compares them
   * @throws {RulesError} for an illegal choice (the game is then unchanged) or a failure while playing.
   */
  decide(choice) {
    if (this.failure !== null) throw new RulesError(`the game stopped on an error: ${this.failure}`);
    const pending = this.pending;
    if (pending === null) throw new RulesError('no decision is pending: the game is over');
    const option = this.legalOption(pending.options, choice);
    if (option === undefined) {
      throw new RulesError(`${JSON.stringify(choice)} is not a legal choice for the pending ${pending.kind} decision of player ${pending.player}; legal choices: ${pending.options.map((o) => JSON.stringify(o)).join(', ')}`);
    }
    this.drawsWithoutDecision = 0;
    this.advance(option);
  }

  /** The option of `options` that `choice` makes, or undefined. */
  legalOption(options, choice) {
    return options.includes(choice) ? choice : undefined;
  }

  /**
   * The canonical observation of the protocol (docs/protocol.md).
   * @returns {object}
   */
  observation() {
    return {
      round: this.round,
      dealer: this.dealer,
      draw_pile: this.pile.length - this.top,
      discard_pile: this.discard.length,
      in_play: this.inPlayTexts(),
      players: this.seats.map((p, seat) => ({
        cards: p.cards.slice(),
        status: p.status,
        round_score: this.roundScore(p),
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
      yield* this.afterRound();
      this.endRound();
      if (this.endless) {
        // play could only cycle: the game ends here, the highest total winning
        const top = Math.max(...this.totals);
        this.over = true;
        this.winners = [];
        for (let seat = 0; seat < this.n; seat++) if (this.totals[seat] === top) this.winners.push(seat);
        return;
      }
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
      this.seats.push(this.newSeat());
    }
    this.active = n;
  }

  /** Decisions taken once a round is over, before it is scored. */
  *afterRound() {}

  /** Each seat's score for the round just over. */
  roundScores() {
    return this.seats.map((p) => this.roundScore(p));
  }

  endRound() {
    const scores = this.roundScores();
    if (scores.some((score) => score !== 0)) this.drawsWithoutDecision = 0; // points banked: not endless
    for (let seat = 0; seat < this.n; seat++) {
      const player = this.seats[seat];
      this.totals[seat] += scores[seat];
      for (const text of player.cards) this.discard.push(text);
      player.cards = [];
    }
    for (const text of this.inPlayTexts()) this.discard.push(text);
    this.inPlay = [];
  }

  /** The texts of the cards in play, in the order revealed. */
  inPlayTexts() {
    return this.inPlay.slice();
  }

  /** The usual end of the game, or the end of round `round_limit` (won by every total at the target). */
  gameEnded() {
    const top = Math.max(...this.totals);
    if (top >= this.options.target_score) {
      const leaders = [];
      for (let seat = 0; seat < this.n; seat++) if (this.totals[seat] === top) leaders.push(seat);
      if (leaders.length === 1 || this.options.tie_at_target !== 'play_another_round') {
        this.over = true;
        this.winners = leaders;
        return true;
      }
    }
    const limit = this.options.round_limit || 0;
    if (limit === 0 || this.round < limit) return false;
    this.over = true;
    this.winners = [];
    for (let seat = 0; seat < this.n; seat++) if (this.totals[seat] >= this.options.target_score) this.winners.push(seat);
    return true;
  }

  // ---- the piles ----

  /**
   * The top card of the draw pile. A draw from an empty pile reshuffles the discard pile first, or ends
   * the round (ROUND_OVER) when there is nothing to reshuffle; under `reshuffle_moment = "when_emptied"`
   * a draw that takes the last card also reshuffles at once, before the card drawn takes effect. Once
   * STALL_PASSES times the deck has been drawn with no decision and no point banked, play only cycles:
   * the round ends (and the game with it).
   */
  draw() {
    if (++this.drawsWithoutDecision > this.cycleLimit) {
      this.endless = true; // the round ends as if nothing were left to draw, and the game with it
      throw ROUND_OVER;
    }
    if (this.top === this.pile.length) {
      if (!this.canReshuffle()) throw ROUND_OVER;
      this.reshuffle();
    }
    const text = this.pile[this.top++];
    if (this.options.reshuffle_moment === 'when_emptied' && this.top === this.pile.length && this.canReshuffle()) this.reshuffle();
    return text;
  }

  /** Whether the discard pile may become the draw pile: it holds cards, and they can still change the round. */
  canReshuffle() {
    return this.discard.length > 0 && !this.stalled();
  }

  /** Whether the discard pile holds only cards that cannot change the round (a game's rule; none by default). */
  stalled() {
    return false;
  }

  reshuffle() {
    // Only the discard pile is shuffled: table and in-play cards stay where they are.
    const held = () => this.discard.slice().sort();
    if (this.nextReshuffle >= this.reshuffles.length) {
      throw new ReshuffleError(`a reshuffle of the ${this.discard.length}-card discard pile is needed in round ${this.round}, but no reshuffle order is left`,
        { problem: 'no_order', discard_pile: held(), index: this.nextReshuffle });
    }
    const order = this.reshuffles[this.nextReshuffle++];
    if (!sameCards(order, this.discard)) {
      throw new ReshuffleError(`reshuffle order ${this.nextReshuffle - 1} is not a permutation of the discard pile (${this.discard.length} cards: ${held().join(' ')}); got ${order.length} cards: ${order.join(' ')}`,
        { problem: 'not_a_permutation', discard_pile: held(), index: this.nextReshuffle - 1 });
    }
    this.pile = order;
    this.top = 0;
    this.discard = [];
  }

  discardInPlay(text) {
    removeFirst(this.inPlay, text);
    this.discard.push(text);
  }

  setStatus(seat, status) {
    const player = this.seats[seat];
    if (player.status === ACTIVE) this.active--;
    player.status = status;
  }
}

module.exports = {
  ACTIVE,
  BUSTED,
  CardGame,
  FLIP7_SIZE,
  FROZEN,
  HIT_OR_STAY,
  ROUND_OVER,
  ReshuffleError,
  RulesError,
  STAYED,
  Unsupported,
  applyOptions,
  cardList,
  cardReader,
  checkOption,
  choose,
  isTable,
  parseDeck,
  removeFirst,
  rulesetTable,
};
