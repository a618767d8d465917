'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { scoreHand } = require('../flip7');

test('official example: 3+11+5+7+10 = 36', () => {
  assert.equal(scoreHand(['3', '11', '5', '7', '10'], false), 36);
});

test('official example: the same with x2 = 72', () => {
  assert.equal(scoreHand(['3', '11', 'x2', '5', '7', '10'], false), 72);
});

test('official example: the same with +10 = 46', () => {
  assert.equal(scoreHand(['3', '11', '5', '+10', '7', '10'], false), 46);
});

test('official example: 3,11,5,7,10,9,4 is a Flip 7 worth 49 + 15 = 64', () => {
  assert.equal(scoreHand(['3', '11', '5', '7', '10', '9', '4'], false), 64);
});

test('x2 doubles the Numbers only, never the +N cards or the bonus', () => {
  assert.equal(scoreHand(['x2', '3', '11', '5', '7', '10', '9', '4', '+4'], false), 98 + 4 + 15);
});

test('modifiers alone: the + cards score, x2 alone scores 0', () => {
  assert.equal(scoreHand(['+6', '+2'], false), 8);
  assert.equal(scoreHand(['x2'], false), 0);
  assert.equal(scoreHand(['x2', '+4'], false), 4);
});

test('the 0 counts toward Flip 7 and action cards score nothing', () => {
  assert.equal(scoreHand(['0', '1', '2', '3', '4', '5', '6', 'CHANCE'], false), 21 + 15);
  assert.equal(scoreHand(['9', 'FREEZE'], false), 9);
});

test('a busted player scores 0', () => {
  assert.equal(scoreHand(['3', '11', '3'], true), 0);
});

test('each x2 held applies (two decks), and the bonus is a ruleset option', () => {
  assert.equal(scoreHand(['5', 'x2', 'x2'], false), 20);
  assert.equal(scoreHand(['0', '1', '2', '3', '4', '5', '6'], false, 40), 61);
});
