'use strict';

// Shared helpers for the tests: a stacked deck and a started game.

const { Game, rulesFromJson } = require('../flip7');

/**
 * The whole deck of `rules` for `players`, with `prefix` on top (top card first) and the other cards after
 * it in composition order.
 */
function stackedDeck(rules, players, prefix) {
  const rest = [];
  const decks = Math.ceil(players / rules.options.players_per_deck);
  for (let d = 0; d < decks; d++) {
    for (const [text, count] of rules.deck) for (let i = 0; i < count; i++) rest.push(text);
  }
  for (const text of prefix) {
    const at = rest.indexOf(text);
    if (at < 0) throw new Error(`the deck has no more ${text}`);
    rest.splice(at, 1);
  }
  return prefix.concat(rest);
}

/** A game whose draw pile starts with `prefix`. */
function stackedGame({ prefix = [], ruleset = 'flip7', players = 3, dealer = 0, reshuffles = [] } = {}) {
  const rules = rulesFromJson(ruleset);
  return new Game(rules, players, dealer, stackedDeck(rules, players, prefix), reshuffles);
}

/** Make each choice in turn; returns the game. */
function play(game, ...choices) {
  for (const choice of choices) game.decide(choice);
  return game;
}

/** The cards of every player, seat by seat. */
function rows(game) {
  return game.observation().players.map((p) => p.cards);
}

module.exports = { stackedDeck, stackedGame, play, rows };
