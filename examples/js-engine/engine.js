#!/usr/bin/env node
'use strict';

/**
 * The protocol front end (docs/protocol.md): one JSON request per line on stdin, one JSON reply per line
 * on stdout, logs on stderr only.
 */

const readline = require('node:readline');
const { Game, OPTIONS, PRESETS, RulesError, Unsupported, baseGameCards, rulesFromJson, scoreHand } = require('./flip7');
const { ReshuffleError } = require('./shared');

const vengeance = require('./vengeance');

const NAME = 'flip7-js';
const VERSION = require('./package.json').version;

/** A bad request; answered with `errored` and not logged as an engine failure. */
class RequestError extends Error {}

function helloResult() {
  const options = {};
  for (const table of [OPTIONS, vengeance.OPTIONS]) {
    for (const [name, spec] of Object.entries(table)) options[name] = spec.integer ? 'any' : spec.values.slice();
  }
  return {
    protocol: 1,
    name: NAME,
    version: VERSION,
    rulesets: [...Object.keys(PRESETS), ...Object.keys(vengeance.PRESETS)],
    levels: ['scoring', 'round', 'game', 'legal'],
    options,
    decks: true,
  };
}

/**
 * One protocol session: it holds the game in progress and answers requests.
 */
class Session {
  constructor() {
    this.game = null;
    this.quit = false;
  }

  /**
   * Answer one request line.
   * @param {string} line one JSON request
   * @returns {string} the JSON reply line, without its newline
   */
  handleLine(line) {
    let request;
    try {
      request = JSON.parse(line);
    } catch (error) {
      const match = /"seq"\s*:\s*(-?\d+)/.exec(line);
      return reply(match ? Number(match[1]) : null, { errored: { message: `invalid JSON: ${error.message}` } });
    }
    const seq = request !== null && typeof request === 'object' && Number.isInteger(request.seq) ? request.seq : null;
    try {
      return reply(seq, { result: this.handle(request) });
    } catch (error) {
      if (error instanceof Unsupported) return reply(seq, { skipped: { reason: error.message } });
      if (!(error instanceof RulesError || error instanceof RequestError)) console.error(error && error.stack ? error.stack : error);
      const errored = { message: String(error && error.message ? error.message : error) };
      if (error instanceof ReshuffleError) errored.reshuffle = error.reshuffle; // the orders do not fit: say how
      return reply(seq, { errored });
    }
  }

  handle(request) {
    if (request === null || typeof request !== 'object' || Array.isArray(request)) throw new RequestError('a request must be a JSON object');
    if (!Number.isInteger(request.seq)) throw new RequestError('a request needs an integer seq');
    switch (request.cmd) {
      case 'hello':
        return helloResult();
      case 'start':
        return this.start(request);
      case 'decide':
        return this.decide(request);
      case 'score':
        return score(request);
      case 'quit':
        this.quit = true;
        this.game = null;
        return {};
      default:
        throw new RequestError(`unknown command ${JSON.stringify(request.cmd)}`);
    }
  }

  start(request) {
    this.game = null;
    const ruleset = request.ruleset === undefined ? 'flip7' : request.ruleset;
    const isVengeance = vengeance.isVengeanceRuleset(ruleset);
    const rules = isVengeance ? vengeance.rulesFromJson(ruleset) : rulesFromJson(ruleset);
    const GameClass = isVengeance ? vengeance.VengeanceGame : Game;
    const dealer = request.dealer === undefined ? 0 : request.dealer;
    this.game = new GameClass(rules, request.players, dealer, request.deck, request.reshuffles === undefined ? [] : request.reshuffles);
    return { observation: this.game.observation() };
  }

  decide(request) {
    const game = this.game;
    if (game === null) throw new RequestError('no game in progress: send start first');
    const pending = game.pending;
    if (pending !== null && request.player !== undefined && request.player !== pending.player) {
      throw new RequestError(`the pending decision is player ${pending.player}'s, not player ${JSON.stringify(request.player)}'s`);
    }
    if (pending !== null && request.kind !== undefined && request.kind !== pending.kind) {
      throw new RequestError(`the pending decision is a ${pending.kind} decision, not ${JSON.stringify(request.kind)}`);
    }
    game.decide(request.choice);
    return { observation: game.observation() };
  }
}

function score(request) {
  const ruleset = request.ruleset === undefined ? 'flip7' : request.ruleset;
  if (vengeance.isVengeanceRuleset(ruleset)) {
    const rules = vengeance.rulesFromJson(ruleset);
    if (request.busted !== undefined && typeof request.busted !== 'boolean') throw new RequestError('busted must be true or false');
    return { score: vengeance.scoreHand(vengeance.vengeanceCards(request.cards, 'cards'), request.busted === true, rules) };
  }
  const rules = rulesFromJson(ruleset);
  const cards = baseGameCards(request.cards, 'cards');
  if (request.busted !== undefined && typeof request.busted !== 'boolean') throw new RequestError('busted must be true or false');
  return { score: scoreHand(cards, request.busted === true, rules.options.flip7_bonus) };
}

function reply(seq, body) {
  return JSON.stringify({ seq, ...body });
}

function main() {
  const session = new Session();
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  process.stdout.on('error', () => process.exit(0)); // the runner went away
  input.on('line', (line) => {
    if (session.quit) return;
    if (!line.trim()) return;
    process.stdout.write(session.handleLine(line) + '\n');
    if (session.quit) input.close();
  });
  // Closing the input (on quit or at the end of stdin) leaves nothing to wait for but pending output:
  // the process then exits with status 0 once stdout is flushed.
  input.on('close', () => {
    process.stdin.destroy();
  });
}

if (require.main === module) main();

module.exports = { Session, helloResult };
