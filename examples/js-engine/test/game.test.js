'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Game, RulesError, rulesFromJson } = require('../flip7');
const { stackedDeck, stackedGame, play, rows } = require('./helpers');

const hitOrStay = (player) => ({ player, kind: 'hit_or_stay', card: null, options: ['hit', 'stay'] });

test('the deal goes clockwise from the Dealer\'s left, then the Hit/Stay offers start there', () => {
  const game = stackedGame({ prefix: ['5', '6', '7'], dealer: 0 });
  assert.deepEqual(rows(game), [['7'], ['5'], ['6']]);
  assert.deepEqual(game.pending, hitOrStay(1));
  const fromDealer = stackedGame({ prefix: ['5', '6', '7'], dealer: 0, ruleset: { base: 'flip7', options: { deal_start: 'dealer' } } });
  assert.deepEqual(rows(fromDealer), [['5'], ['6'], ['7']]);
  assert.deepEqual(fromDealer.pending, hitOrStay(0));
});

test('a Freeze in the deal pauses it; the deal resumes after the player dealt it', () => {
  const game = stackedGame({ prefix: ['FREEZE', '5', '7'] });
  let obs = game.observation();
  assert.deepEqual(obs.in_play, ['FREEZE']);
  assert.deepEqual(obs.pending, { player: 1, kind: 'target', card: 'FREEZE', options: [0, 1, 2] });
  game.decide(2);
  obs = game.observation();
  assert.deepEqual(obs.in_play, []);
  // Seat 2 is frozen (skipped by the deal), seat 0 is dealt, then seat 1, who has no card, must hit.
  assert.deepEqual(obs.players.map((p) => [p.cards, p.status]), [[['5'], 'active'], [['7'], 'active'], [['FREEZE'], 'frozen']]);
  assert.deepEqual(obs.pending, hitOrStay(0));
  assert.equal(obs.draw_pile, 91);
});

test('a player given cards by a Flip Three before their deal turn may stay instead of being dealt', () => {
  const game = stackedGame({ prefix: ['FLIP3', '4', '6', '8', '9', '10'] });
  game.decide(2);
  let obs = game.observation();
  assert.deepEqual(obs.players[2].cards, ['4', '6', '8']);
  assert.equal(obs.discard_pile, 1); // the Flip Three card, once resolved
  assert.deepEqual(obs.pending, hitOrStay(2));
  game.decide('stay');
  obs = game.observation();
  assert.deepEqual(obs.players.map((p) => [p.cards, p.status]), [[['9'], 'active'], [['10'], 'active'], [['4', '6', '8'], 'stayed']]);
  assert.deepEqual(obs.pending, hitOrStay(0));
});

test('cards set aside in a Flip Three are assigned in draw order, then take effect in order', () => {
  const game = stackedGame({ prefix: ['FLIP3', 'FREEZE', 'FLIP3', '3', '5', '6', '7'] });
  game.decide(2);
  let obs = game.observation();
  assert.deepEqual(obs.in_play, ['FREEZE', 'FLIP3']);
  assert.equal(obs.discard_pile, 1);
  assert.deepEqual(obs.pending, { player: 2, kind: 'assign', card: 'FREEZE', options: [0, 1, 2] });
  game.decide(0);
  obs = game.observation();
  assert.equal(obs.players[0].status, 'active'); // nothing takes effect before every card is assigned
  assert.deepEqual(obs.pending, { player: 2, kind: 'assign', card: 'FLIP3', options: [0, 1, 2] });
  game.decide(1);
  obs = game.observation();
  assert.deepEqual(obs.players.map((p) => [p.cards, p.status]), [[['FREEZE'], 'frozen'], [['5', '6', '7'], 'active'], [['3'], 'active']]);
  assert.deepEqual(obs.in_play, []);
  assert.equal(obs.discard_pile, 2);
  assert.deepEqual(obs.pending, hitOrStay(2));
});

test('a set-aside card whose receiver is no longer active is discarded', () => {
  const game = play(stackedGame({ prefix: ['FLIP3', 'FREEZE', 'FLIP3', '3', '5', '6', '7'] }), 2, 0, 0);
  const obs = game.observation();
  assert.deepEqual(obs.players.map((p) => p.cards), [['FREEZE'], [], ['3']]);
  assert.equal(obs.discard_pile, 2);
  assert.equal(obs.draw_pile, 90);
});

test('set-aside cards of a busted Flip Three target are discarded, or passed on under the option', () => {
  const prefix = ['5', '6', 'FLIP3', 'FREEZE', '5'];
  const discarded = play(stackedGame({ prefix }), 1).observation();
  assert.deepEqual(discarded.players[1], { cards: ['5', '5'], status: 'busted', round_score: 0, total: 0 });
  assert.deepEqual(discarded.in_play, []);
  assert.equal(discarded.discard_pile, 2);
  const passed = play(stackedGame({ prefix, ruleset: { base: 'flip7', options: { set_aside_on_bust: 'pass_to_other_active' } } }), 1);
  assert.deepEqual(passed.pending, { player: 1, kind: 'assign', card: 'FREEZE', options: [0, 2] });
  passed.decide(2);
  assert.deepEqual(rows(passed), [['0'], ['5', '5'], ['6', 'FREEZE']]);
});

test('a second Second Chance is given to another active player who holds none', () => {
  const game = play(stackedGame({ prefix: ['CHANCE', '5', '6', 'CHANCE', '5'] }), 'hit');
  let obs = game.observation();
  assert.deepEqual(obs.in_play, ['CHANCE']);
  assert.deepEqual(obs.pending, { player: 1, kind: 'give', card: 'CHANCE', options: [0, 2] });
  game.decide(2);
  assert.deepEqual(rows(game), [['6'], ['CHANCE'], ['5', 'CHANCE']]);
  // Seat 2 uses it on a duplicate: both cards are discarded and the player stays in.
  game.decide('hit');
  obs = game.observation();
  assert.deepEqual(obs.players[2], { cards: ['5'], status: 'active', round_score: 5, total: 0 });
  assert.equal(obs.discard_pile, 2);
  assert.deepEqual(obs.pending, hitOrStay(0));
});

test('a Second Chance with one possible receiver goes there at once; with none it is discarded', () => {
  const forced = play(stackedGame({ prefix: ['CHANCE', 'CHANCE', '6', 'CHANCE'] }), 'hit');
  assert.deepEqual(rows(forced), [['6', 'CHANCE'], ['CHANCE'], ['CHANCE']]);
  assert.deepEqual(forced.pending, hitOrStay(2));
  const nobody = play(stackedGame({ prefix: ['CHANCE', '5', '6', '7', 'CHANCE'] }), 'hit', 'stay', 'stay', 'hit');
  assert.deepEqual(rows(nobody), [['6'], ['CHANCE', '7'], ['5']]);
  assert.equal(nobody.observation().discard_pile, 1);
});

test('using a Second Chance on a Hit ends the turn, unless the option deals a replacement', () => {
  const prefix = ['5', '6', '7', 'CHANCE', '5', '9'];
  const ends = play(stackedGame({ prefix }), 'hit', 'stay', 'stay', 'hit');
  assert.deepEqual(rows(ends), [['7'], ['5'], ['6']]);
  const replaced = play(stackedGame({ prefix, ruleset: { base: 'flip7', options: { second_chance_ends_turn: false } } }), 'hit', 'stay', 'stay', 'hit');
  assert.deepEqual(rows(replaced), [['7'], ['5', '9'], ['6']]);
  assert.equal(replaced.observation().discard_pile, 2);
});

test('a duplicate busts and stays in the row', () => {
  const obs = play(stackedGame({ prefix: ['5', '6', '7', '5'] }), 'hit').observation();
  assert.deepEqual(obs.players[1], { cards: ['5', '5'], status: 'busted', round_score: 0, total: 0 });
  assert.deepEqual(obs.pending, hitOrStay(2));
});

test('a Flip 7 ends the round at once with the bonus; the next round is dealt by the next Dealer', () => {
  const game = play(stackedGame({ prefix: ['0', '8', '9', '1', '2', '3', '4', '5', '6'] }), 'hit', 'stay', 'stay', 'hit', 'hit', 'hit', 'hit', 'hit');
  const obs = game.observation();
  assert.equal(obs.round, 2);
  assert.equal(obs.dealer, 1);
  assert.deepEqual(obs.players.map((p) => p.total), [9, 21 + 15, 8]);
  assert.equal(obs.discard_pile, 9);
  assert.deepEqual(obs.pending, hitOrStay(2));
});

test('a reshuffle mid-round takes the next order; the cards in front of players stay', () => {
  const ruleset = { name: 'ten', base: 'flip7', options: { target_score: 1000 }, deck: { 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1 } };
  const prefix = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'];
  const game = play(stackedGame({ ruleset, prefix, reshuffles: [['4', '2', '3', '1']] }), 'hit', 'stay', 'stay', 'stay', 'hit', 'hit', 'hit');
  let obs = game.observation();
  assert.deepEqual([obs.round, obs.draw_pile, obs.discard_pile], [2, 0, 4]);
  game.decide('hit');
  obs = game.observation();
  assert.deepEqual([obs.draw_pile, obs.discard_pile], [3, 0]);
  assert.deepEqual(obs.players.map((p) => p.cards), [['6', '9'], ['7', '10'], ['5', '8', '4']]);

  const short = play(stackedGame({ ruleset, prefix }), 'hit', 'stay', 'stay', 'stay', 'hit', 'hit', 'hit');
  assert.throws(() => short.decide('hit'), /no reshuffle order is left/);
  const wrong = play(stackedGame({ ruleset, prefix, reshuffles: [['4', '2', '3', '9']] }), 'hit', 'stay', 'stay', 'stay', 'hit', 'hit', 'hit');
  assert.throws(() => wrong.decide('hit'), /not a permutation of the discard pile/);
});

test('the round ends when both the draw pile and the discard pile are empty', () => {
  const ruleset = { name: 'four', base: 'flip7', deck: { 1: 1, 2: 1, 3: 1, 4: 1 } };
  const game = play(stackedGame({ ruleset, prefix: ['1', '2', '3', '4'], reshuffles: [['4', '3', '2', '1']] }), 'hit', 'hit');
  const obs = game.observation();
  assert.equal(obs.round, 2);
  assert.deepEqual(obs.players.map((p) => [p.cards, p.total]), [[['3'], 3], [['2'], 5], [['4'], 2]]);
  assert.equal(obs.draw_pile, 1);
});

test('a tie at the top of the target means another round; shared_win ends the game with both winners', () => {
  const prefix = ['10', '10', '1', '2', '3', '4'];
  const again = play(stackedGame({ prefix, ruleset: { base: 'flip7', options: { target_score: 10 } } }), 'stay', 'stay', 'stay');
  let obs = again.observation();
  assert.deepEqual([obs.round, obs.over, obs.players.map((p) => p.total)], [2, false, [1, 10, 10]]);
  again.decide('stay');
  again.decide('stay');
  again.decide('stay');
  obs = again.observation();
  assert.deepEqual([obs.over, obs.winners, obs.pending, obs.players.map((p) => p.total)], [true, [1], null, [4, 14, 12]]);
  assert.throws(() => again.decide('hit'), /game is over/);

  const shared = play(stackedGame({ prefix, ruleset: { base: 'flip7', options: { target_score: 10, tie_at_target: 'shared_win' } } }), 'stay', 'stay', 'stay');
  obs = shared.observation();
  assert.deepEqual([obs.round, obs.over, obs.winners], [1, true, [1, 2]]);
  assert.deepEqual(obs.players[0], { cards: [], status: 'stayed', round_score: 0, total: 1 });
});

test('more than 18 players play with two decks', () => {
  const rules = rulesFromJson('flip7');
  const numbers = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '12', '11', '10', '9', '8', '7', '6'];
  const game = new Game(rules, 19, 0, stackedDeck(rules, 19, numbers));
  assert.equal(game.observation().draw_pile, 188 - 19);
  assert.throws(() => new Game(rules, 19, 0, stackedDeck(rules, 18, [])), RulesError);
});

test('without an initial deal the first player, holding nothing, must hit', () => {
  const game = stackedGame({ prefix: ['5', '6', '7'], ruleset: 'flip7-no-deal' });
  assert.deepEqual(rows(game), [['7'], ['5'], ['6']]);
  assert.deepEqual(game.pending, hitOrStay(1));
});

test('an illegal choice is refused and leaves the game unchanged', () => {
  const game = stackedGame({ prefix: ['FREEZE', '5', '7'] });
  const before = JSON.stringify(game.observation());
  assert.throws(() => game.decide(3), /not a legal choice/);
  assert.throws(() => game.decide('hit'), /not a legal choice/);
  assert.throws(() => game.decide('1'), /not a legal choice/);
  assert.equal(JSON.stringify(game.observation()), before);
});

test('a bad setup is refused', () => {
  const rules = rulesFromJson('flip7');
  const deck = stackedDeck(rules, 3, []);
  assert.throws(() => new Game(rules, 2, 0, deck), /at least 3 players/);
  assert.throws(() => new Game(rules, 3, 3, deck), /dealer/);
  assert.throws(() => new Game(rules, 3, 0, deck.slice(1)), /not a permutation/);
  assert.throws(() => new Game(rules, 3, 0, ['BOGUS', ...deck.slice(1)]), /unknown card/);
});
