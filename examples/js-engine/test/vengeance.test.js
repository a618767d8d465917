'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { RulesError, Unsupported } = require('../flip7');
const { VengeanceGame, PRESETS, isVengeanceRuleset, rulesFromJson, scoreHand } = require('../vengeance');
const { stackedDeck, play, rows } = require('./helpers');

// ---- helpers ---------------------------------------------------------------------------------------

/** A game whose draw pile starts with `prefix`; with 3 players and Dealer 2 the turns go 0, 1, 2. */
function stackedGame(prefix, { ruleset = 'vengeance', players = 3, dealer = 2, reshuffles = [] } = {}) {
  const rules = rulesFromJson(ruleset);
  return new VengeanceGame(rules, players, dealer, stackedDeck(rules, players, prefix), reshuffles);
}

const statuses = (game) => game.observation().players.map((p) => p.status);
const ref = (player, index) => ({ player, index });
const hitOrStay = (player) => ({ player, kind: 'hit_or_stay', card: null, options: ['hit', 'stay'] });

const rules = (options) => rulesFromJson({ base: 'vengeance', options });

// ---- scoring ---------------------------------------------------------------------------------------

test('official example: 3+11+5+7+10+8+4 = 48, halved 24, -4 gives 20, Flip 7 bonus gives 35', () => {
  assert.equal(scoreHand(['3', '11', '5', '7', '10', '8', '4', '/2', '-4'], false), 35);
});

test('halving an odd sum rounds down', () => {
  assert.equal(scoreHand(['3', '4', '/2'], false), 3);
  assert.equal(scoreHand(['13', '/2'], false), 6);
});

test('the floor at 0 applies before the Flip 7 bonus, and not at all with negative scores', () => {
  const hand = ['1', '2', '3', '4', '5', '6', '8', '/2', '-10', '-8']; // 29, halved 14, -18 = -4
  assert.equal(scoreHand(hand, false), 0 + 15);
  assert.equal(scoreHand(hand, false, rules({ negative_scores: true })), -4 + 15);
  assert.equal(scoreHand(['3', '-10'], false), 0);
  assert.equal(scoreHand(['3', '-10'], false, rulesFromJson('vengeance-basic')), -7);
  assert.equal(scoreHand(['3', '-10'], false, rules({ brutal_mode: true })), -7);
});

test('The Zero makes the round 0, unless the player Flips 7', () => {
  assert.equal(scoreHand(['ZERO', '12', '5'], false), 0);
  assert.equal(scoreHand(['ZERO', '1', '2', '3', '4', '5', '6'], false), 21 + 15);
  assert.equal(scoreHand(['ZERO', '12', '5'], false, rules({ special_numbers: false })), 17);
});

test('Unlucky 7 and Lucky 13 score their values; a Lucky 13 pair counts once toward Flip 7 by default', () => {
  assert.equal(scoreHand(['U7', '5'], false), 12);
  const pair = ['L13', '13', '1', '2', '3', '4', '5']; // 41: six values, or seven when both 13s count
  assert.equal(scoreHand(pair, false), 41);
  assert.equal(scoreHand(pair, false, rules({ flip7_two_13s: 'count_both' })), 41 + 15);
});

test('a busted player scores 0; card texts are read laxly', () => {
  assert.equal(scoreHand(['9', '9'], true), 0);
  assert.equal(scoreHand(['Lucky 13', '÷2', '−2'], false), 4);
});

// ---- rulesets --------------------------------------------------------------------------------------

test('the two presets: 108 and 105 cards, and the options of seed 004', () => {
  const count = (r) => [...r.deck.values()].reduce((a, b) => a + b, 0);
  assert.equal(count(rulesFromJson('vengeance')), 108);
  const basic = rulesFromJson('vengeance-basic');
  assert.equal(count(basic), 105);
  assert.equal(basic.options.special_numbers, false);
  assert.equal(basic.options.discard_chooser, 'victim');
  assert.equal(basic.options.max_players, 6);
  assert.deepEqual(Object.keys(PRESETS), ['vengeance', 'vengeance-basic']);
});

test('base-game rulesets are unsupported; base-game cards and options are errors', () => {
  assert.throws(() => rulesFromJson('flip7'), Unsupported);
  assert.throws(() => rulesFromJson({ base: 'vengeance', options: { colour: 'red' } }), Unsupported);
  assert.throws(() => rulesFromJson({ base: 'vengeance', options: { second_chance_ends_turn: false } }), RulesError);
  assert.throws(() => rulesFromJson({ base: 'vengeance', deck: { 5: 5, FREEZE: 3 } }), RulesError);
  assert.throws(() => rulesFromJson({ base: 'vengeance', options: { brutal_mode: 'yes' } }), RulesError);
  assert.equal(isVengeanceRuleset('vengeance-basic'), true);
  assert.equal(isVengeanceRuleset({ name: 'mine', base: 'vengeance' }), true);
  assert.equal(isVengeanceRuleset({ name: 'flip7', base: 'flip7' }), false);
});

test('a second whole deck above 18 players', () => {
  const obs = stackedGame([], { players: 19 }).observation();
  const onTable = obs.players.reduce((n, p) => n + p.cards.length, 0);
  assert.equal(obs.draw_pile + obs.discard_pile + obs.in_play.length + onTable, 216);
  const r = rulesFromJson('vengeance');
  assert.throws(() => new VengeanceGame(r, 19, 0, stackedDeck(r, 3, [])), RulesError);
});

// ---- the deal and turns ----------------------------------------------------------------------------

test('a Steal, Swap or Discard dealt before any card is face up is discarded with no effect', () => {
  const game = stackedGame(['STEAL', '9', '8']);
  const obs = game.observation();
  assert.deepEqual(rows(game), [[], ['9'], ['8']]);
  assert.equal(obs.discard_pile, 1);
  assert.deepEqual(obs.pending, hitOrStay(0)); // an empty row may Stay (stay_minimum = "none")
});

test('The Zero forces a Hit: the decision is never asked', () => {
  const game = stackedGame(['ZERO', '9', '8', '5']);
  assert.deepEqual(rows(game), [['ZERO', '5'], ['9'], ['8']]);
  assert.equal(game.observation().players[0].round_score, 0);
  assert.deepEqual(game.pending, hitOrStay(1));
});

test('Unlucky 7 discards every other Number and Modifier; a later 7 busts', () => {
  const game = stackedGame(['7', '9', '8', '3', '-2', 'U7', '7']);
  play(game, 'hit', 'hit', 0, 'stay'); // seat 0: 7 3, and seat 1 plays its -2 on seat 0
  assert.deepEqual(rows(game)[0], ['7', '3', '-2']);
  play(game, 'hit');
  assert.deepEqual(rows(game)[0], ['U7']);
  assert.equal(game.observation().discard_pile, 3);
  play(game, 'stay', 'hit');
  const obs = game.observation();
  assert.equal(obs.round, 2); // nobody was active any more: the round is over
  assert.deepEqual(obs.players.map((p) => p.total), [0, 9, 8]);
});

test('Lucky 13 allows one other 13; a third busts', () => {
  const game = stackedGame(['13', '9', '8', 'L13', '13']);
  play(game, 'hit');
  assert.deepEqual(game.observation().players[0], { cards: ['13', 'L13'], status: 'active', round_score: 26, total: 0 });
  play(game, 'stay', 'stay', 'hit');
  assert.deepEqual(game.observation().players.map((p) => p.total), [0, 9, 8]);
});

test('a decision is compared as JSON, type by type', () => {
  const game = stackedGame(['10', '9', '8', 'STEAL']);
  play(game, 'hit');
  assert.throws(() => game.decide({ player: true, index: 0 }), RulesError);
  assert.throws(() => game.decide({ player: 1, index: 0, extra: 1 }), RulesError);
  game.decide(JSON.parse('{"index": 0, "player": 1}'));
  assert.deepEqual(rows(game), [['10', '9'], [], ['8']]);
});

// ---- Steal, Swap, Discard --------------------------------------------------------------------------

test('Steal: a card of another player, received as if dealt', () => {
  const game = stackedGame(['10', '9', '8', 'STEAL']);
  play(game, 'hit');
  let obs = game.observation();
  assert.deepEqual(obs.in_play, ['STEAL']);
  assert.deepEqual(obs.pending, { player: 0, kind: 'card', card: 'STEAL', options: [ref(1, 0), ref(2, 0)] });
  play(game, ref(1, 0));
  obs = game.observation();
  assert.deepEqual(rows(game), [['10', '9'], [], ['8']]);
  assert.deepEqual(obs.in_play, []);
  assert.equal(obs.discard_pile, 1);
  assert.deepEqual(obs.pending, hitOrStay(1));
});

test('Steal busts the thief who already holds that value', () => {
  const game = play(stackedGame(['9', '9', '8', 'STEAL']), 'hit', ref(1, 0));
  assert.deepEqual(game.observation().players[0], { cards: ['9', '9'], status: 'busted', round_score: 0, total: 0 });
});

test('Swap: every pair of cards of two rows, in seat then index order; incoming cards join the end', () => {
  const game = stackedGame(['10', '-4', '8', 'SWAP']);
  play(game, 2); // seat 1 is dealt the -4 and plays it on seat 2
  assert.deepEqual(rows(game), [['10'], [], ['-4', '8']]);
  play(game, 'hit');
  assert.deepEqual(game.pending.options, [[ref(0, 0), ref(2, 0)], [ref(0, 0), ref(2, 1)]]);
  play(game, [ref(0, 0), ref(2, 1)]);
  assert.deepEqual(rows(game), [['8'], [], ['-4', '10']]);
});

test('Swap between two other players can bust both', () => {
  const game = stackedGame(['1', '5', '6', '2', '6', '5', 'SWAP']);
  play(game, 'hit', 'hit', 'hit', 'hit', [ref(1, 0), ref(2, 0)]);
  assert.deepEqual(rows(game), [['1', '2'], ['6', '6'], ['5', '5']]);
  assert.deepEqual(statuses(game), ['active', 'busted', 'busted']);
  assert.deepEqual(game.pending, hitOrStay(0));
});

test('Discard: the resolver picks any face-up card, their own included', () => {
  const game = play(stackedGame(['10', '9', '8', 'DISCARD']), 'hit');
  assert.deepEqual(game.pending.options, [ref(0, 0), ref(1, 0), ref(2, 0)]);
  play(game, ref(0, 0));
  assert.deepEqual(rows(game), [[], ['9'], ['8']]);
  assert.equal(game.observation().discard_pile, 2);
});

test('Discard with discard_chooser = "victim": the resolver names an opponent, who picks a Number', () => {
  const game = stackedGame(['10', '9', '8', '1', '2', '7', 'DISCARD'], { ruleset: 'vengeance-basic' });
  play(game, 'hit', 'hit', 'hit', 'hit');
  assert.deepEqual(game.pending, { player: 0, kind: 'target', card: 'DISCARD', options: [1, 2] });
  play(game, 2);
  assert.deepEqual(game.pending, { player: 2, kind: 'card', card: 'DISCARD', options: [ref(2, 0), ref(2, 1)] });
  play(game, ref(2, 1));
  assert.deepEqual(rows(game), [['10', '1'], ['9', '2'], ['8']]);
});

// ---- Flip Four, Just One More ----------------------------------------------------------------------

test('Flip Four: Modifiers and Actions are held back, then resolved by the target in draw order', () => {
  const game = stackedGame(['10', '9', '8', 'FLIP4', '-4', '1', 'STEAL', '2']);
  play(game, 'hit', 1);
  let obs = game.observation();
  assert.deepEqual(obs.players[1].cards, ['9', '1', '2']);
  assert.deepEqual(obs.in_play, ['-4', 'STEAL']); // the Flip Four card is discarded after its four cards
  assert.equal(obs.discard_pile, 1);
  assert.deepEqual(obs.pending, { player: 1, kind: 'target', card: '-4', options: [0, 1, 2] });
  play(game, 2);
  assert.deepEqual(game.pending, { player: 1, kind: 'card', card: 'STEAL', options: [ref(0, 0), ref(2, 0), ref(2, 1)] });
  play(game, ref(2, 0));
  assert.deepEqual(rows(game), [['10'], ['9', '1', '2', '8'], ['-4']]);
  assert.deepEqual(game.pending, hitOrStay(1));
});

test('Flip Four stops on a bust, and its held-back cards are discarded', () => {
  const game = play(stackedGame(['10', '9', '8', 'FLIP4', 'SWAP', '9']), 'hit', 1);
  const obs = game.observation();
  assert.deepEqual(obs.players[1], { cards: ['9', '9'], status: 'busted', round_score: 0, total: 0 });
  assert.deepEqual(obs.in_play, []);
  assert.equal(obs.discard_pile, 2);
});

test('an Unlucky 7 inside a Flip Four wipes the row and the Flip Four goes on', () => {
  const game = play(stackedGame(['10', '9', '8', 'FLIP4', '1', 'U7', '7']), 'hit', 0);
  assert.deepEqual(game.observation().players[0], { cards: ['U7', '7'], status: 'busted', round_score: 0, total: 0 });
  assert.equal(game.observation().discard_pile, 3);
});

test('the round waits for held-back cards when the last active player stays through Just One More', () => {
  const game = stackedGame(['10', '9', '8', '1', 'FLIP4', 'ONEMORE', 'SWAP', '3', '4', '5']);
  play(game, 'hit', 'stay', 'stay', 'hit', 0, 0);
  const obs = game.observation();
  assert.deepEqual(statuses(game), ['stayed', 'stayed', 'stayed']);
  assert.deepEqual(obs.in_play, ['SWAP']);
  assert.equal(obs.round, 1);
  assert.deepEqual(obs.pending.kind, 'swap');
  play(game, [ref(0, 1), ref(1, 0)]);
  assert.deepEqual(game.observation().players.map((p) => p.total), [31, 1, 8]);
});

test('Just One More: the target takes one card, then must Stay', () => {
  const game = play(stackedGame(['10', '9', '8', 'ONEMORE', '5']), 'hit');
  assert.deepEqual(game.pending, { player: 0, kind: 'target', card: 'ONEMORE', options: [0, 1, 2] });
  play(game, 1);
  assert.deepEqual(rows(game), [['10'], ['9', '5'], ['8']]);
  assert.deepEqual(statuses(game), ['active', 'stayed', 'active']);
  assert.deepEqual(game.pending, hitOrStay(2));
});

test('the Stay forced by Just One More overrides The Zero\'s must-Hit', () => {
  const game = stackedGame(['ZERO', '9', '8', 'ONEMORE', '5']);
  play(game, 0);
  assert.deepEqual(game.observation().players[0], { cards: ['ZERO', '5'], status: 'stayed', round_score: 0, total: 0 });
  assert.deepEqual(game.pending, hitOrStay(1));
});

// ---- Brutal Mode, the deck --------------------------------------------------------------------------

test('Brutal Mode: after a Flip 7, the bonus or 15 off another player', () => {
  const prefix = ['1', '9', '8', '2', '3', '4', '5', '6', '10'];
  const ruleset = { base: 'vengeance', options: { brutal_mode: true } };
  const game = play(stackedGame(prefix, { ruleset }), 'hit', 'stay', 'stay', 'hit', 'hit', 'hit', 'hit', 'hit');
  assert.deepEqual(game.pending, { player: 0, kind: 'target', card: null, options: [0, 1, 2] });
  assert.equal(game.observation().round, 1);
  assert.deepEqual(play(game, 2).observation().players.map((p) => p.total), [31, 9, -7]);
  const bonus = play(stackedGame(prefix, { ruleset }), 'hit', 'stay', 'stay', 'hit', 'hit', 'hit', 'hit', 'hit', 0);
  assert.deepEqual(bonus.observation().players.map((p) => p.total), [46, 9, 8]);
});

test('nothing left to draw ends the round; the next reshuffle takes the discard pile', () => {
  const ruleset = { name: 'tiny', base: 'vengeance', deck: { 1: 1, 2: 1, 3: 1 } };
  const game = stackedGame([], { ruleset, reshuffles: [['3', '2', '1']] });
  assert.deepEqual(rows(game), [['1'], ['2'], ['3']]);
  play(game, 'hit');
  const obs = game.observation();
  assert.equal(obs.round, 2);
  assert.deepEqual(obs.players.map((p) => p.total), [1, 2, 3]);
  assert.deepEqual(obs.players.map((p) => p.cards), [['1'], ['3'], ['2']]); // Dealer 0 now: seats 1, 2, 0
});

// ---- halve_order -----------------------------------------------------------------------------------

test('halve_order "numbers_then_minus": the /2 halves the Numbers, then the -N cards subtract, then the bonus', () => {
  const options = { halve_order: 'numbers_then_minus' };
  assert.equal(scoreHand(['3', '11', '5', '7', '10', '8', '4', '/2', '-4'], false, rules(options)), 35); // 48/2 - 4 + 15
  assert.equal(scoreHand(['9', '-4', '/2'], false, rules(options)), 0); // 9/2 = 4, minus 4
});

test('halve_order "whole_total": Numbers minus the -N cards plus the bonus, then halved, then the floor', () => {
  const options = { halve_order: 'whole_total' };
  assert.equal(scoreHand(['3', '11', '5', '7', '10', '8', '4', '/2', '-4'], false, rules(options)), 29); // (48 - 4 + 15) / 2 = 29.5
  assert.equal(scoreHand(['9', '-4', '/2'], false, rules(options)), 2); // (9 - 4) / 2 = 2.5
  assert.equal(scoreHand(['13', '12', '/2', '/2'], false, rules(options)), 6); // 25, 12, 6
  assert.equal(scoreHand(['3', '-10', '/2'], false, rules(options)), 0); // -7 halves to -4, floored at 0
  assert.equal(scoreHand(['3', '-10', '/2'], false, rules({ ...options, negative_scores: true })), -4); // toward minus infinity
  assert.equal(scoreHand(['ZERO', '12', '/2'], false, rules(options)), 0); // The Zero still wins out
});

test('vengeance-basic reads the /2 as halving the whole total', () => {
  const basic = rulesFromJson('vengeance-basic');
  assert.equal(basic.options.halve_order, 'whole_total');
  assert.equal(scoreHand(['9', '-5', '/2'], false, basic), 2); // (9 - 5) / 2; numbers first would give 4 - 5 = -1
  assert.equal(scoreHand(['9', '-5', '/2'], false, rulesFromJson({ base: 'vengeance-basic', options: { halve_order: 'numbers_then_minus' } })), -1);
});

// ---- Brutal Mode: brutal_busted_modifier, brutal_flip7_target --------------------------------------

test('brutal_busted_modifier "from_zero": a busted row scores its Modifiers on a base of 0, with no floor', () => {
  const options = { brutal_mode: true, brutal_busted_modifier: 'from_zero' };
  assert.equal(scoreHand(['9', '-10', '9'], true, rules(options)), -10);
  assert.equal(scoreHand(['9', '-10', '/2', '9'], true, rules(options)), -10); // half of 0 is 0, then -10
  assert.equal(scoreHand(['9', '-10', '/2', '9'], true, rules({ ...options, halve_order: 'whole_total' })), -5); // -10 halved
  assert.equal(scoreHand(['9', '-6', '/2', '-2', '/2', '9'], true, rules({ ...options, halve_order: 'whole_total' })), -2); // -8, -4, -2
  assert.equal(scoreHand(['9', '9'], true, rules(options)), 0);
  // It is the default, and it needs Brutal Mode.
  assert.equal(scoreHand(['9', '-10', '9'], true, rules({ brutal_mode: true })), -10);
  assert.equal(scoreHand(['9', '-10', '9'], true, rules({ brutal_busted_modifier: 'from_zero' })), 0);
});

test('brutal_busted_modifier "no_effect": a busted player scores 0 whatever Modifiers they hold', () => {
  assert.equal(scoreHand(['9', '-10', '/2', '9'], true, rules({ brutal_mode: true, brutal_busted_modifier: 'no_effect' })), 0);
});

test('Brutal Mode: a Modifier given to a busted player counts under "from_zero", not under "no_effect"', () => {
  // Deal (Dealer 2): seats 0, 1, 2 get 5, 9, 8. Seat 0 hits a 5 and busts; seat 1 hits the -4 and gives it
  // to seat 0; seats 2 and 1 stay.
  const prefix = ['5', '9', '8', '5', '-4'];
  const choices = ['hit', 'hit', 0];
  const fromZero = play(stackedGame(prefix, { ruleset: { base: 'vengeance', options: { brutal_mode: true } } }), ...choices);
  assert.deepEqual(fromZero.observation().players[0], { cards: ['5', '5', '-4'], status: 'busted', round_score: -4, total: 0 });
  play(fromZero, 'stay', 'stay');
  assert.deepEqual(fromZero.observation().players.map((p) => p.total), [-4, 9, 8]);
  const noEffect = play(stackedGame(prefix, { ruleset: { base: 'vengeance', options: { brutal_mode: true, brutal_busted_modifier: 'no_effect' } } }), ...choices, 'stay', 'stay');
  assert.deepEqual(noEffect.observation().players.map((p) => p.total), [0, 9, 8]);
});

test('brutal_flip7_target: "any_seat" offers every seat, "in_round" only the own seat and the players not busted', () => {
  // Deal (Dealer 2): 1, 9, 8. Seat 0 hits the 2, seat 1 hits a 9 and busts, seat 2 stays, and seat 0 hits
  // 3 4 5 6 10: seven different Numbers, 31 points.
  const prefix = ['1', '9', '8', '2', '9', '3', '4', '5', '6', '10'];
  const choices = ['hit', 'hit', 'stay', 'hit', 'hit', 'hit', 'hit', 'hit'];
  const brutal = (target) => ({ base: 'vengeance', options: { brutal_mode: true, brutal_flip7_target: target } });
  const anySeat = play(stackedGame(prefix, { ruleset: brutal('any_seat') }), ...choices);
  assert.deepEqual(anySeat.pending, { player: 0, kind: 'target', card: null, options: [0, 1, 2] });
  const inRound = play(stackedGame(prefix, { ruleset: brutal('in_round') }), ...choices);
  assert.deepEqual(inRound.pending, { player: 0, kind: 'target', card: null, options: [0, 2] });
  inRound.decide(2);
  assert.deepEqual(inRound.observation().players.map((p) => p.total), [31, 0, 8 - 15]);
});

// ---- reshuffle_moment ------------------------------------------------------------------------------

test('reshuffle_moment: "when_emptied" reshuffles as the last card is taken, "when_needed" at the next draw', () => {
  // Round 1 (Dealer 2): 1 2 3 dealt to seats 0, 1, 2; seat 0 hits the 4; all stay. Round 2 (Dealer 0):
  // 5 6 7 dealt to seats 1, 2, 0; seat 1 hits the 8, the last card, with the 4 cards of round 1 discarded.
  const deck = { 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1 };
  const prefix = ['1', '2', '3', '4', '5', '6', '7', '8'];
  const choices = ['hit', 'stay', 'stay', 'stay', 'hit'];
  const game = (moment) => play(stackedGame(prefix, { ruleset: { name: 'eight', base: 'vengeance', options: { reshuffle_moment: moment }, deck }, reshuffles: [['4', '3', '2', '1']] }), ...choices);
  const piles = (g) => [g.observation().draw_pile, g.observation().discard_pile];
  const needed = game('when_needed');
  assert.deepEqual([needed.observation().round, ...piles(needed)], [2, 0, 4]);
  const emptied = game('when_emptied');
  assert.deepEqual([emptied.observation().round, ...piles(emptied)], [2, 4, 0]);
  for (const g of [needed, emptied]) {
    g.decide('hit'); // seat 2 takes the top card of the reshuffled pile
    assert.deepEqual(rows(g), [['7'], ['5', '8'], ['6', '4']]);
  }
});

test('the base-game-only options: their default value changes nothing in a Vengeance ruleset, another is an error', () => {
  const others = [['stalled_round', 'reshuffle'], ['flip3_card_discard', 'after_set_aside'], ['set_aside_resolution', 'resolve_each'], ['deal_after_flip3_cards', 'deal_anyway']];
  for (const [name, value] of others) assert.throws(() => rulesFromJson({ base: 'vengeance', options: { [name]: value } }), RulesError, name);
  const defaults = { stalled_round: 'end', flip3_card_discard: 'after_draws', set_aside_resolution: 'assign_all_first', deal_after_flip3_cards: 'hit_or_stay' };
  // Written out in full, the ruleset plays as the preset: after four rounds of staying on the deal card the
  // game goes on (no round limit).
  const game = play(stackedGame(['1', '2', '3'], { ruleset: { base: 'vengeance', options: defaults } }), ...new Array(12).fill('stay'));
  assert.deepEqual([game.observation().round, game.observation().over], [5, false]);
});
