'use strict';

// The base-game options of readings-spec: reshuffle_moment, stalled_round, flip3_card_discard,
// set_aside_resolution, deal_after_flip3_cards, round_limit and the flip7-challenge preset. Each test
// stacks the deck so that the option decides what the observation shows; expected values are worked out
// from the option's definition, step by step, in the comments.

const test = require('node:test');
const assert = require('node:assert/strict');
const { RulesError, rulesFromJson } = require('../flip7');
const { stackedGame, play, rows } = require('./helpers');

const hitOrStay = (player) => ({ player, kind: 'hit_or_stay', card: null, options: ['hit', 'stay'] });
const withOptions = (options, extra = {}) => ({ name: 'custom', base: 'flip7', ...extra, options });
const piles = (game) => {
  const obs = game.observation();
  return [obs.draw_pile, obs.discard_pile];
};

// ---- reshuffle_moment ----------------------------------------------------------------------------

// Eight different Numbers. Round 1 (Dealer 0, deal to seats 1, 2, 0): 1 2 3, seat 1 hits the 4, all stay:
// 4 cards go to the discard pile and 5 6 7 8 are left. Round 2 (Dealer 1, deal to seats 2, 0, 1): 5 6 7,
// then seat 2 hits and takes the 8, the last card of the draw pile.
const EIGHT = { 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1 };
const EIGHT_PREFIX = ['1', '2', '3', '4', '5', '6', '7', '8'];
const EIGHT_CHOICES = ['hit', 'stay', 'stay', 'stay', 'hit'];

test('reshuffle_moment "when_needed": the discard pile is reshuffled only when a card is needed', () => {
  const ruleset = withOptions({ reshuffle_moment: 'when_needed' }, { deck: EIGHT });
  const game = play(stackedGame({ ruleset, prefix: EIGHT_PREFIX, reshuffles: [['4', '3', '2', '1']] }), ...EIGHT_CHOICES);
  assert.equal(game.observation().round, 2);
  assert.deepEqual(piles(game), [0, 4]);
  game.decide('hit'); // seat 0 needs a card: the reshuffle happens now, and seat 0 takes its top card
  assert.deepEqual(piles(game), [3, 0]);
  assert.deepEqual(rows(game), [['6', '4'], ['7'], ['5', '8']]);
});

test('reshuffle_moment "when_emptied": taking the last card reshuffles a non-empty discard pile at once', () => {
  const ruleset = withOptions({ reshuffle_moment: 'when_emptied' }, { deck: EIGHT });
  const game = play(stackedGame({ ruleset, prefix: EIGHT_PREFIX, reshuffles: [['4', '3', '2', '1']] }), ...EIGHT_CHOICES);
  assert.deepEqual(piles(game), [4, 0]);
  game.decide('hit');
  assert.deepEqual(rows(game), [['6', '4'], ['7'], ['5', '8']]);
  // Without an order for that reshuffle, the draw of the 8 already needs one.
  const short = play(stackedGame({ ruleset, prefix: EIGHT_PREFIX }), 'hit', 'stay', 'stay', 'stay');
  assert.throws(() => short.decide('hit'), /no reshuffle order is left/);
});

// Seat 1 is dealt a Second Chance, uses it on a second 5 (5 and CHANCE go to the discard pile), keeps the
// second Second Chance, takes a 6 and then the last card, another 6, which uses that Second Chance too.
const CHANCES = { 1: 1, 2: 1, 5: 2, 6: 2, CHANCE: 2 };
const CHANCES_PREFIX = ['CHANCE', '1', '2', '5', '5', 'CHANCE', '6', '6'];
const CHANCES_CHOICES = ['hit', 'stay', 'stay', 'hit', 'hit', 'hit', 'hit'];

test('reshuffle_moment "when_emptied": the reshuffle comes before the last card takes effect', () => {
  const ruleset = withOptions({ reshuffle_moment: 'when_emptied' }, { deck: CHANCES });
  // When the last 6 is drawn the discard pile holds the first 5 and CHANCE: that is what is reshuffled;
  // the 6 and the second CHANCE it then discards stay in the discard pile.
  const reshuffles = [['5', 'CHANCE'], ['1', '2', '5', '5', '6', '6', 'CHANCE']];
  const game = play(stackedGame({ ruleset, prefix: CHANCES_PREFIX, reshuffles }), ...CHANCES_CHOICES);
  assert.deepEqual(rows(game), [['2'], ['5', '6'], ['1']]);
  assert.deepEqual(piles(game), [2, 2]);
  assert.deepEqual(game.pending, hitOrStay(1));
  // The 5 of the new pile busts seat 1, the last active player. Round 2's deal (seats 2, 0, 1) takes the
  // last card, the CHANCE: the 7 cards of round 1 are reshuffled at once and deal the 1 and the 2.
  game.decide('hit');
  const obs = game.observation();
  assert.deepEqual([obs.round, obs.players.map((p) => p.total)], [2, [2, 0, 1]]);
  assert.deepEqual(rows(game), [['1'], ['2'], ['CHANCE']]);
  assert.deepEqual(piles(game), [5, 0]);

  const needed = play(stackedGame({ ruleset: withOptions({}, { deck: CHANCES }), prefix: CHANCES_PREFIX }), ...CHANCES_CHOICES);
  assert.deepEqual(piles(needed), [0, 4]);
});

test('reshuffle_moment "when_emptied": an empty discard pile waits for the usual reshuffle', () => {
  // Seat 1 (dealt a Second Chance) takes the 5, the 6 and the last card, a second 6, with nothing in the
  // discard pile yet: no reshuffle. The Second Chance it uses then fills the discard pile, and the next
  // draw reshuffles it as under "when_needed".
  const deck = { 1: 1, 2: 1, 5: 1, 6: 2, CHANCE: 1 };
  const ruleset = withOptions({ reshuffle_moment: 'when_emptied' }, { deck });
  const game = play(stackedGame({ ruleset, prefix: ['CHANCE', '1', '2', '5', '6', '6'], reshuffles: [['6', 'CHANCE'], ['1', '2', '5', '6', '6']] }), 'hit', 'stay', 'stay', 'hit', 'hit');
  assert.deepEqual(rows(game), [['2'], ['5', '6'], ['1']]);
  assert.deepEqual(piles(game), [0, 2]);
  game.decide('hit'); // the fallback reshuffle: seat 1 draws the 6 and busts, ending round 1
  assert.deepEqual(game.observation().players.map((p) => p.total), [2, 0, 1]);
  assert.deepEqual(rows(game), [['1'], ['2'], ['CHANCE']]);
});

// ---- stalled_round -------------------------------------------------------------------------------

// Deal: seat 1 CHANCE, seat 2 the 1, seat 0 the 2. Seat 1 hits the 3; seats 2 and 0 stay; seat 1 hits the
// second CHANCE, which nobody can receive (the others stayed): it is discarded, alone in the discard pile.
const STALL = { 1: 1, 2: 1, 3: 1, CHANCE: 2 };
const STALL_PREFIX = ['CHANCE', '1', '2', '3', 'CHANCE'];
const STALL_CHOICES = ['hit', 'stay', 'stay', 'hit', 'hit'];

test('stalled_round "end": a discard pile of Second Chances only is not reshuffled; the round ends', () => {
  const ruleset = withOptions({ stalled_round: 'end' }, { deck: STALL });
  // The last hit finds the draw pile empty and only the CHANCE to reshuffle: round 1 ends (3, 1, 2 banked),
  // and round 2's deal (Dealer 1: seats 2, 0, 1) takes the reshuffle order of all five cards.
  const game = play(stackedGame({ ruleset, prefix: STALL_PREFIX, reshuffles: [['1', '2', '3', 'CHANCE', 'CHANCE']] }), ...STALL_CHOICES);
  const obs = game.observation();
  assert.equal(obs.round, 2);
  assert.deepEqual(obs.players.map((p) => p.total), [2, 3, 1]);
  assert.deepEqual(rows(game), [['2'], ['3'], ['1']]);
});

test('stalled_round "reshuffle": the same discard pile is reshuffled and the round goes on', () => {
  const ruleset = withOptions({ stalled_round: 'reshuffle' }, { deck: STALL });
  // Seat 1 draws the reshuffled CHANCE: they already hold one and nobody can receive it, so it is discarded
  // again and seat 1, still active, is asked again.
  const game = play(stackedGame({ ruleset, prefix: STALL_PREFIX, reshuffles: [['CHANCE']] }), ...STALL_CHOICES);
  const obs = game.observation();
  assert.equal(obs.round, 1);
  assert.deepEqual(obs.players[1], { cards: ['CHANCE', '3'], status: 'active', round_score: 3, total: 0 });
  assert.deepEqual(piles(game), [0, 1]);
  assert.deepEqual(obs.pending, hitOrStay(1));
});

test('reshuffle_moment "when_emptied" leaves a stalled discard pile alone, unless stalled_round = "reshuffle"', () => {
  // As above, then seat 1 hits a 4, the last card, while the discard pile holds only the CHANCE.
  const deck = { ...STALL, 4: 1 };
  const prefix = [...STALL_PREFIX, '4'];
  const stalled = play(stackedGame({ ruleset: withOptions({ reshuffle_moment: 'when_emptied' }, { deck }), prefix }), ...STALL_CHOICES);
  assert.deepEqual(piles(stalled), [0, 1]);
  const cycling = play(stackedGame({ ruleset: withOptions({ reshuffle_moment: 'when_emptied', stalled_round: 'reshuffle' }, { deck }), prefix, reshuffles: [['CHANCE']] }), ...STALL_CHOICES);
  assert.deepEqual(piles(cycling), [1, 0]);
  assert.deepEqual(rows(cycling)[1], ['CHANCE', '3', '4']);
});

// ---- flip3_card_discard --------------------------------------------------------------------------

// Seat 1 is dealt a Flip Three (A) and aims it at seat 2, who draws a Flip Three (B, set aside), the 3 and
// the 4. Seat 2 assigns B to seat 1, who draws a Freeze (set aside), the 5 and the 6, then assigns it.
const NESTED_PREFIX = ['FLIP3', 'FLIP3', '3', '4', 'FREEZE', '5', '6'];

test('flip3_card_discard "after_draws": a Flip Three card is discarded once its three cards are drawn', () => {
  const game = play(stackedGame({ ruleset: withOptions({ flip3_card_discard: 'after_draws' }), prefix: NESTED_PREFIX }), 2, 1);
  const obs = game.observation();
  assert.deepEqual(obs.in_play, ['FREEZE']);
  assert.equal(obs.discard_pile, 2);
  assert.deepEqual(obs.pending, { player: 1, kind: 'assign', card: 'FREEZE', options: [0, 1, 2] });
});

test('flip3_card_discard "after_set_aside": a Flip Three card stays in play until its set-aside cards took effect', () => {
  const game = play(stackedGame({ ruleset: withOptions({ flip3_card_discard: 'after_set_aside' }), prefix: NESTED_PREFIX }), 2, 1);
  let obs = game.observation();
  assert.deepEqual(obs.in_play, ['FLIP3', 'FLIP3', 'FREEZE']); // A, B and B's Freeze, in the order revealed
  assert.equal(obs.discard_pile, 0);
  game.decide(0); // the Freeze takes effect on seat 0; then B, then A are discarded
  obs = game.observation();
  assert.deepEqual(obs.in_play, []);
  assert.equal(obs.discard_pile, 2);
  assert.deepEqual(obs.players.map((p) => [p.cards, p.status]), [[['FREEZE'], 'frozen'], [['5', '6'], 'active'], [['3', '4'], 'active']]);
  assert.deepEqual(obs.pending, hitOrStay(2)); // the deal goes on with seat 2, who has cards
});

test('flip3_card_discard "after_set_aside": nothing set aside, or a busted target, discards it after the draws', () => {
  const ruleset = withOptions({ flip3_card_discard: 'after_set_aside' });
  // Seat 0 is dealt a Flip Three and aims it at seat 1 (holding a 5): a Freeze is set aside, the 5 busts.
  const busted = play(stackedGame({ ruleset, prefix: ['5', '6', 'FLIP3', 'FREEZE', '5'] }), 1).observation();
  assert.deepEqual(busted.in_play, []);
  assert.equal(busted.discard_pile, 2);
  // With the pass variant the busted target assigns the Freeze, and the Flip Three waits in play.
  const passing = withOptions({ flip3_card_discard: 'after_set_aside', set_aside_on_bust: 'pass_to_other_active' });
  const passed = play(stackedGame({ ruleset: passing, prefix: ['5', '6', 'FLIP3', 'FREEZE', '5'] }), 1);
  assert.deepEqual(passed.observation().in_play, ['FLIP3', 'FREEZE']);
  passed.decide(2);
  assert.deepEqual(passed.observation().in_play, []);
  assert.equal(passed.observation().discard_pile, 1); // the Flip Three; the Freeze stays with seat 2
});

// ---- set_aside_resolution ------------------------------------------------------------------------

// Seat 1 is dealt a Flip Three and aims it at seat 2, who sets aside a Freeze and a Flip Three, then draws
// the 3. The Freeze goes to seat 0, the Flip Three to seat 1 (who then draws 5 6 7).
const ASSIGN_PREFIX = ['FLIP3', 'FREEZE', 'FLIP3', '3', '5', '6', '7'];

test('set_aside_resolution "assign_all_first": every set-aside card is assigned before any takes effect', () => {
  const game = play(stackedGame({ ruleset: withOptions({ set_aside_resolution: 'assign_all_first' }), prefix: ASSIGN_PREFIX }), 2, 0);
  const obs = game.observation();
  assert.equal(obs.players[0].status, 'active');
  assert.deepEqual(obs.pending, { player: 2, kind: 'assign', card: 'FLIP3', options: [0, 1, 2] });
});

test('set_aside_resolution "resolve_each": each card takes effect once assigned; the next goes to who is active then', () => {
  const game = play(stackedGame({ ruleset: withOptions({ set_aside_resolution: 'resolve_each' }), prefix: ASSIGN_PREFIX }), 2, 0);
  let obs = game.observation();
  assert.deepEqual(obs.players[0], { cards: ['FREEZE'], status: 'frozen', round_score: 0, total: 0 });
  assert.deepEqual(obs.pending, { player: 2, kind: 'assign', card: 'FLIP3', options: [1, 2] });
  game.decide(1);
  obs = game.observation();
  assert.deepEqual(rows(game), [['FREEZE'], ['5', '6', '7'], ['3']]);
  assert.deepEqual(obs.pending, hitOrStay(2));
});

test('set_aside_resolution "resolve_each": a nested Flip Three runs to its end before the next card is assigned', () => {
  // Seat 1 is dealt Flip Three A and aims it at seat 2, who sets aside Flip Three B and a Freeze, then draws
  // the 1. B goes to seat 1, who sets aside a Freeze and Flip Three C, then draws the 2; that Freeze goes to
  // seat 0, C to seat 2 (who draws 3 4 5). Only then is A's Freeze assigned, between seats 1 and 2.
  const prefix = ['FLIP3', 'FLIP3', 'FREEZE', '1', 'FREEZE', 'FLIP3', '2', '3', '4', '5'];
  const ruleset = withOptions({ set_aside_resolution: 'resolve_each', flip3_card_discard: 'after_set_aside' });
  const game = play(stackedGame({ ruleset, prefix }), 2, 1, 0, 2);
  let obs = game.observation();
  assert.deepEqual(obs.pending, { player: 2, kind: 'assign', card: 'FREEZE', options: [1, 2] });
  assert.deepEqual(obs.in_play, ['FLIP3', 'FREEZE']); // A keeps its place before its Freeze
  assert.equal(obs.discard_pile, 2); // C, then B
  assert.deepEqual(rows(game), [['FREEZE'], ['2'], ['1', '3', '4', '5']]);
  game.decide(1);
  obs = game.observation();
  assert.deepEqual(obs.in_play, []);
  assert.equal(obs.discard_pile, 3);
  assert.deepEqual(obs.players.map((p) => p.status), ['frozen', 'frozen', 'active']);
});

// ---- deal_after_flip3_cards ----------------------------------------------------------------------

// Seat 1 is dealt a Flip Three and aims it at seat 2, who draws 4 6 8 before their deal turn.
const DEAL_PREFIX = ['FLIP3', '4', '6', '8', '9', '10'];

test('deal_after_flip3_cards "hit_or_stay": a player holding cards at their deal turn chooses instead', () => {
  const game = play(stackedGame({ ruleset: withOptions({ deal_after_flip3_cards: 'hit_or_stay' }), prefix: DEAL_PREFIX }), 2);
  assert.deepEqual(game.pending, hitOrStay(2));
});

test('deal_after_flip3_cards "deal_anyway": that player is dealt like everyone else', () => {
  const game = play(stackedGame({ ruleset: withOptions({ deal_after_flip3_cards: 'deal_anyway' }), prefix: DEAL_PREFIX }), 2);
  // Seat 2 is dealt the 9, seat 0 the 10; seat 1 (no card) must hit and takes the next card, the 0 (the
  // rest of the stacked deck is in composition order).
  assert.deepEqual(rows(game), [['10'], ['0'], ['4', '6', '8', '9']]);
  assert.deepEqual(game.pending, hitOrStay(2));
});

// ---- round_limit and flip7-challenge -------------------------------------------------------------

test('round_limit 0 (no limit) and N: the game ends at the end of round N, with no winner below the target', () => {
  // Every player stays on their deal card: round 1 deals 5 6 7 (seats 1, 2, 0), round 2 deals 0 1 2
  // (seats 2, 0, 1; the rest of the deck in composition order): totals 7+1, 5+2, 6+0.
  const unlimited = play(stackedGame({ ruleset: withOptions({ round_limit: 0 }), prefix: ['5', '6', '7'] }), 'stay', 'stay', 'stay', 'stay', 'stay', 'stay');
  assert.deepEqual([unlimited.observation().round, unlimited.observation().over], [3, false]);
  const limited = play(stackedGame({ ruleset: withOptions({ round_limit: 2 }), prefix: ['5', '6', '7'] }), 'stay', 'stay', 'stay');
  assert.equal(limited.observation().over, false);
  play(limited, 'stay', 'stay', 'stay');
  const obs = limited.observation();
  assert.deepEqual([obs.round, obs.over, obs.winners, obs.pending], [2, true, [], null]);
  assert.deepEqual(obs.players.map((p) => p.total), [8, 7, 6]);
});

test('round_limit: the usual end comes first; at round N a tie at the target no longer plays on', () => {
  // Seats 1 and 2 bank 10 each in round 1 (target 10): a tie at the top.
  const prefix = ['10', '10', '1'];
  const tieBefore = play(stackedGame({ ruleset: withOptions({ target_score: 10, round_limit: 2 }), prefix }), 'stay', 'stay', 'stay');
  assert.deepEqual([tieBefore.observation().round, tieBefore.observation().over], [2, false]);
  const tieAtLimit = play(stackedGame({ ruleset: withOptions({ target_score: 10, round_limit: 1 }), prefix }), 'stay', 'stay', 'stay');
  assert.deepEqual([tieAtLimit.observation().over, tieAtLimit.observation().winners], [true, [1, 2]]);
  const usual = play(stackedGame({ ruleset: withOptions({ target_score: 10, round_limit: 3 }), prefix: ['10', '5', '1'] }), 'stay', 'stay', 'stay');
  assert.deepEqual([usual.observation().round, usual.observation().over, usual.observation().winners], [1, true, [1]]);
});

test('flip7-challenge: one or two players, four rounds to reach the target', () => {
  const rules = rulesFromJson('flip7-challenge');
  assert.deepEqual([rules.options.min_players, rules.options.max_players, rules.options.round_limit], [1, 2, 4]);
  assert.throws(() => stackedGame({ ruleset: 'flip7-challenge', players: 3 }), RulesError);
  // Alone, staying on each deal card: 5, 6, 7 and 8 bank 26 in four rounds, far from 200.
  const solo = play(stackedGame({ ruleset: 'flip7-challenge', players: 1, prefix: ['5', '6', '7', '8'] }), 'stay', 'stay', 'stay');
  assert.equal(solo.observation().round, 4);
  solo.decide('stay');
  let obs = solo.observation();
  assert.deepEqual([obs.round, obs.over, obs.winners, obs.players[0].total], [4, true, [], 26]);
  // With a target of 20 the same game is won at the end of round 4 (26 >= 20).
  const won = play(stackedGame({ ruleset: withOptions({ target_score: 20 }, { base: 'flip7-challenge' }), players: 1, prefix: ['5', '6', '7', '8'] }), 'stay', 'stay', 'stay', 'stay');
  obs = won.observation();
  assert.deepEqual([obs.round, obs.over, obs.winners], [4, true, [0]]);
});
