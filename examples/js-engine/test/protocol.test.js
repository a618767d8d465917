'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { Session } = require('../engine');
const { rulesFromJson } = require('../flip7');
const { stackedDeck } = require('./helpers');

const ENGINE = path.join(__dirname, '..', 'engine.js');

function ask(session, request) {
  return JSON.parse(session.handleLine(JSON.stringify(request)));
}

test('hello declares the protocol, rulesets, levels and options', () => {
  const { seq, result } = ask(new Session(), { seq: 0, cmd: 'hello', protocol: 1 });
  assert.equal(seq, 0);
  assert.equal(result.protocol, 1);
  assert.deepEqual(result.rulesets, ['flip7', 'flip7-no-deal', 'flip7-challenge', 'vengeance', 'vengeance-basic']);
  assert.deepEqual(result.options.discard_chooser, ['resolver', 'victim']);
  assert.deepEqual(result.levels, ['scoring', 'round', 'game', 'legal']);
  assert.deepEqual(result.options.set_aside_on_bust, ['discard', 'pass_to_other_active']);
  assert.equal(result.options.target_score, 'any');
  assert.equal(result.decks, true);
});

test('hello declares every value of the reading options, defaults first', () => {
  const { result } = ask(new Session(), { seq: 0, cmd: 'hello', protocol: 1 });
  assert.deepEqual(result.options.reshuffle_moment, ['when_needed', 'when_emptied']);
  assert.deepEqual(result.options.stalled_round, ['end', 'reshuffle']);
  assert.deepEqual(result.options.flip3_card_discard, ['after_draws', 'after_set_aside']);
  assert.deepEqual(result.options.set_aside_resolution, ['assign_all_first', 'resolve_each']);
  assert.deepEqual(result.options.deal_after_flip3_cards, ['hit_or_stay', 'deal_anyway']);
  assert.equal(result.options.round_limit, 'any');
  assert.deepEqual(result.options.brutal_busted_modifier, ['from_zero', 'no_effect']);
  assert.deepEqual(result.options.brutal_flip7_target, ['any_seat', 'in_round']);
  assert.deepEqual(result.options.halve_order, ['numbers_then_minus', 'whole_total']);
});

test('an option of the other game: a Vengeance option in a base-game ruleset is skipped, the reverse is an error', () => {
  const session = new Session();
  assert.ok(ask(session, { seq: 1, cmd: 'score', ruleset: { base: 'flip7', options: { halve_order: 'whole_total' } }, cards: ['5'], busted: false }).skipped);
  assert.match(ask(session, { seq: 2, cmd: 'score', ruleset: { base: 'vengeance', options: { stalled_round: 'reshuffle' } }, cards: ['5'], busted: false }).errored.message, /base game only/);
  assert.deepEqual(ask(session, { seq: 3, cmd: 'score', ruleset: { base: 'vengeance', options: { brutal_mode: true } }, cards: ['5', '-6', '5'], busted: true }), { seq: 3, result: { score: -6 } });
});

test('start and decide reply with observations', () => {
  const session = new Session();
  const deck = stackedDeck(rulesFromJson('flip7'), 3, ['5', '6', '7', '5']);
  const started = ask(session, { seq: 1, cmd: 'start', ruleset: { name: 'flip7', base: 'flip7' }, players: 3, dealer: 0, deck, reshuffles: [] });
  assert.deepEqual(started.result.observation.pending, { player: 1, kind: 'hit_or_stay', card: null, options: ['hit', 'stay'] });
  const decided = ask(session, { seq: 2, cmd: 'decide', player: 1, kind: 'hit_or_stay', choice: 'hit' });
  assert.equal(decided.seq, 2);
  assert.equal(decided.result.observation.players[1].status, 'busted');
  const wrong = ask(session, { seq: 3, cmd: 'decide', player: 2, kind: 'hit_or_stay', choice: 'fold' });
  assert.match(wrong.errored.message, /not a legal choice/);
});

test('score replies with the round score', () => {
  const reply = ask(new Session(), { seq: 4, cmd: 'score', ruleset: 'flip7', cards: ['3', '11', '5', '7', '10', 'x2'], busted: false });
  assert.deepEqual(reply, { seq: 4, result: { score: 72 } });
});

test('Vengeance rulesets are played; unknown options and unimplemented values are skipped', () => {
  const session = new Session();
  assert.deepEqual(ask(session, { seq: 5, cmd: 'score', ruleset: 'vengeance', cards: ['3', '11', '5', '7', '10', '8', '4', '/2', '-4'], busted: false }), { seq: 5, result: { score: 35 } });
  assert.deepEqual(ask(session, { seq: 6, cmd: 'score', ruleset: 'vengeance-basic', cards: ['3', '-5'], busted: false }), { seq: 6, result: { score: -2 } });
  assert.ok(ask(session, { seq: 7, cmd: 'start', ruleset: { base: 'flip7', options: { brutal_mode: true } }, players: 3, dealer: 0, deck: [], reshuffles: [] }).skipped);
  assert.ok(ask(session, { seq: 8, cmd: 'start', ruleset: { base: 'flip7', options: { deal_start: 'right_of_dealer' } }, players: 3, dealer: 0, deck: [], reshuffles: [] }).skipped);
});

test('reshuffle orders that do not fit: errored with the structured reshuffle field', () => {
  // A deck of four cards and three players who all stay: round 1 banks the 3, the 1 and the 2, which go to
  // the discard pile; round 2's deal takes the 5, then needs a reshuffle of those three cards.
  const ruleset = { name: 'tiny', base: 'flip7', deck: { 1: 1, 2: 1, 3: 1, 5: 1 } };
  for (const [reshuffles, problem] of [[[], 'no_order'], [[['1']], 'not_a_permutation']]) {
    const session = new Session();
    assert.ok(ask(session, { seq: 1, cmd: 'start', ruleset, players: 3, dealer: 0, deck: ['1', '2', '3', '5'], reshuffles }).result);
    assert.ok(ask(session, { seq: 2, cmd: 'decide', choice: 'stay' }).result);
    assert.ok(ask(session, { seq: 3, cmd: 'decide', choice: 'stay' }).result);
    const { errored } = ask(session, { seq: 4, cmd: 'decide', choice: 'stay' });
    assert.deepEqual(errored.reshuffle, { problem, discard_pile: ['1', '2', '3'], index: 0 });
    assert.equal(typeof errored.message, 'string');
  }
});

test('bad requests get errored replies, never a crash', () => {
  const session = new Session();
  assert.deepEqual(JSON.parse(session.handleLine('not json')).seq, null);
  assert.equal(JSON.parse(session.handleLine('{"seq": 12, "cmd": ')).seq, 12);
  assert.ok(JSON.parse(session.handleLine('[1, 2]')).errored);
  assert.ok(ask(session, { seq: 9, cmd: 'dance' }).errored);
  assert.ok(ask(session, { seq: 10, cmd: 'decide', choice: 'hit' }).errored);
  assert.ok(ask(session, { seq: 11, cmd: 'start', ruleset: 'flip7', players: 3, dealer: 0, deck: ['7'], reshuffles: [] }).errored);
  assert.ok(ask(session, { seq: 13, cmd: 'score', ruleset: 'flip7', cards: 'x2', busted: false }).errored);
});

test('the process answers line by line, logs nothing on stdout, and exits on quit', () => {
  const input = ['{"seq":0,"cmd":"hello","protocol":1}', 'oops', '{"seq":1,"cmd":"quit"}', '{"seq":2,"cmd":"hello","protocol":1}'].join('\n') + '\n';
  const run = spawnSync(process.execPath, [ENGINE], { input, encoding: 'utf8' });
  assert.equal(run.status, 0);
  const replies = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
  assert.deepEqual(replies.map((r) => r.seq), [0, null, 1]);
  assert.deepEqual(replies[2], { seq: 1, result: {} });
});

test('the process exits when stdin closes', () => {
  const run = spawnSync(process.execPath, [ENGINE], { input: '{"seq":0,"cmd":"hello","protocol":1}\n', encoding: 'utf8' });
  assert.equal(run.status, 0);
  assert.equal(run.stdout.trim().split('\n').length, 1);
});
