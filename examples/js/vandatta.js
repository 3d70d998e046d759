#!/usr/bin/env node
/*
 * Vändåtta: an independent implementation speaking the rulespec JSON-lines protocol.
 *
 * Written from the rule briefs alone (shared/rules/vandatta.md, records.md, resolutions.md,
 * protocol.md) as a witness for `rulespec verify`. Node, no packages, one file.
 *
 *   node vandatta.js [--mutant NAME]
 *
 * One JSON request per line on stdin, one JSON answer per line on stdout; diagnostics on stderr.
 * Ops: new, to_move, legal, apply, result, observe, quit.
 *
 * Offered: 2-14 players (V13), any dealer, every option of the brief's summary with these
 * exceptions, which `new` answers with "not offered": multi_aces = true,
 * lappen_detection = challenge_before_next_turn, empty_stock = end_deal, and the options named
 * only inside ambiguity entries (no_out_without_lappen, warning_at_3).
 *
 * Mutants (--mutant NAME): each adds exactly one deliberate bug, for testing verifiers.
 *   eight_on_ace                     an eight may be played on an Ace top.
 *   no_extra_turn_after_ace          after an Ace the turn passes on (no extra turn).
 *   draw_limit_4                     one draw more than max_draws is allowed in a turn.
 *   ace_penalty_wrong                under pagat scoring an Ace left in hand scores 4, not 5.
 *   swedish_scoring_wrong            under scoring = swedish the hand is scored as under pagat.
 *   hardcoded_dealer                 the `dealer` of `new` is ignored; seat 0 always deals first.
 *   accepts_anything                 an illegal decision is answered {"ok": true} and ignored.
 *   leaks_hands                      `observe` shows every hand's cards.
 *   crash_on_reshuffle               applying a reshuffle writes to stderr and exits with code 3.
 *   hang_after_20                    after 20 applied events the process never answers again.
 *   no_lappen_penalty_not_announced  under lappen_penalty_trigger = not_announced, `no_lappen`
 *                                    draws no penalty cards.
 *   one_pack_for_six                 6 players with decks = auto play with one pack.
 */
'use strict';

const readline = require('readline');

const RANKS = '23456789TJQKA';
const SUITS = 'CDHS';

const MUTANTS = new Set([
  'eight_on_ace', 'no_extra_turn_after_ace', 'draw_limit_4', 'ace_penalty_wrong',
  'swedish_scoring_wrong', 'hardcoded_dealer', 'accepts_anything', 'leaks_hands',
  'crash_on_reshuffle', 'hang_after_20', 'no_lappen_penalty_not_announced', 'one_pack_for_six',
]);

// ---------------------------------------------------------------------------------------------
// Cards
// ---------------------------------------------------------------------------------------------

const rankOf = (c) => c[0];
const suitOf = (c) => c[1];
const isEight = (c) => rankOf(c) === '8';
const isAce = (c) => rankOf(c) === 'A';
const isOrdinary = (c) => !isEight(c) && !isAce(c);

/** Canonical order (H5, R2): suits C, D, H, S, then ranks 2..A within a suit. */
const cardKey = (c) => SUITS.indexOf(suitOf(c)) * 13 + RANKS.indexOf(rankOf(c));
const sortCards = (cards) => cards.slice().sort((a, b) => cardKey(a) - cardKey(b));

/** Parse a card code as records.md allows it on input (lowercase, `10`); null if invalid. */
function parseCard(code) {
  if (typeof code !== 'string') return null;
  let s = code.toUpperCase();
  if (s.length === 3 && s.startsWith('10')) s = 'T' + s[2];
  if (s.length !== 2 || !RANKS.includes(s[0]) || !SUITS.includes(s[1])) return null;
  return s;
}

/** Parse a suit letter (R6b): C, D, H or S, lowercase accepted; null if invalid. */
function parseSuit(v) {
  if (typeof v !== 'string' || v.length !== 1) return null;
  const s = v.toUpperCase();
  return SUITS.includes(s) ? s : null;
}

/** The playing pack: `packs` standard packs, ranks 2-5 removed under deck_strip (VAN-23, H9). */
function makePack(packs, strip) {
  const pack = [];
  for (const s of SUITS) {
    for (const r of RANKS) {
      if (strip && '2345'.includes(r)) continue;
      for (let i = 0; i < packs; i++) pack.push(r + s);
    }
  }
  return sortCards(pack);
}

/** True when two card lists hold the same cards, whatever the order. */
function sameMultiset(a, b) {
  if (a.length !== b.length) return false;
  const x = sortCards(a);
  const y = sortCards(b);
  return x.every((c, i) => c === y[i]);
}

/** Remove the given cards (one copy each) from a hand; returns the new hand. */
function removeCards(hand, cards) {
  const rest = hand.slice();
  for (const c of cards) rest.splice(rest.indexOf(c), 1);
  return rest;
}

/** JSON with keys sorted: the canonical text of an event (H5). */
function canonicalText(value) {
  if (Array.isArray(value)) return '[' + value.map(canonicalText).join(',') + ']';
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalText(value[k])).join(',') + '}';
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// Options (brief's option summary, H1, H2, R9)
// ---------------------------------------------------------------------------------------------

const isBool = (v) => typeof v === 'boolean';
const isInt = (v, min) => Number.isInteger(v) && v >= min;
const oneOf = (...values) => (v) => values.includes(v);

/** name -> [default, check(value) -> true when valid]. */
const OPTIONS = {
  decks: ['auto', oneOf('auto', 1, 2)],
  hand_size: [7, (v) => isInt(v, 1)],
  turnup_eight: ['bury_random', oneOf('bury_random', 'bottom')],
  turnup_ace_all_draw: [true, isBool],
  voluntary_draw: [true, isBool],
  max_draws: [3, (v) => isInt(v, 0)],
  multi_play: [true, isBool],
  multi_first_card: ['suit_or_rank', oneOf('suit_or_rank', 'suit_only')],
  multi_on_special_top: [true, isBool],
  multi_aces: [false, isBool],
  ace_on_ace: [true, isBool],
  go_out_in_ace_extra_turn: ['allowed', oneOf('allowed', 'forbidden')],
  lappen_states: ['rank_set', oneOf('rank_set', 'single_card_only')],
  lappen_penalty_trigger: ['announced_but_not_out', oneOf('announced_but_not_out', 'not_announced', 'both')],
  lappen_penalty: [3, (v) => isInt(v, 0)],
  lappen_detection: ['automatic', oneOf('automatic', 'challenge_before_next_turn')],
  empty_stock: ['reshuffle', oneOf('reshuffle', 'pass_when_empty', 'end_deal')],
  blocked: ['all_score', oneOf('all_score', 'lowest_hand_scores_zero')],
  scoring: ['pagat', oneOf('pagat', 'swedish')],
  deck_strip: ['none', oneOf('none', 'remove_2_to_5')],
  deals: [null, (v) => isInt(v, 1)],
  target: [null, (v) => isInt(v, 1)],
  game_end: [null, (v) => typeof v === 'string' && /^(deals|target|elimination)\(\d+\)$/.test(v)],
};

/** Values this witness does not implement (V14 leaves their meaning to a spec). */
const NOT_OFFERED = [
  ['multi_aces', true],
  ['lappen_detection', 'challenge_before_next_turn'],
  ['empty_stock', 'end_deal'],
];
const AMBIGUITY_ONLY = ['no_out_without_lappen', 'warning_at_3'];

/** Resolve the options of `new`; returns {opts} or {error}. */
function resolveOptions(given) {
  if (given === undefined || given === null) given = {};
  if (typeof given !== 'object' || Array.isArray(given)) return { error: 'options must be an object' };
  const opts = {};
  for (const name of Object.keys(given)) {
    if (AMBIGUITY_ONLY.includes(name)) return { error: `not offered: option ${name}` };
    if (!(name in OPTIONS)) return { error: `unknown option ${name}` };
    if (!OPTIONS[name][1](given[name])) return { error: `bad value for ${name}: ${JSON.stringify(given[name])}` };
  }
  for (const [name, value] of NOT_OFFERED) {
    if (given[name] === value) return { error: `not offered: ${name} = ${value}` };
  }
  for (const name of Object.keys(OPTIONS)) opts[name] = name in given ? given[name] : OPTIONS[name][0];
  return matchLength(opts);
}

/** Settle the match length (R9, V12): {mode: 'deals'|'target', limit}. */
function matchLength(opts) {
  const ways = ['deals', 'target', 'game_end'].filter((k) => opts[k] !== null);
  if (ways.length > 1) return { error: `only one of deals, target, game_end may be given (R9)` };
  let mode = 'deals';
  let limit = 1;
  if (opts.deals !== null) limit = opts.deals;
  if (opts.target !== null) [mode, limit] = ['target', opts.target];
  if (opts.game_end !== null) {
    const m = /^(\w+)\((\d+)\)$/.exec(opts.game_end);
    mode = m[1] === 'deals' ? 'deals' : 'target'; // target(T) is elimination(T) (V12)
    limit = Number(m[2]);
    if (limit < 1) return { error: 'game_end needs a positive number' };
  }
  opts.length = { mode, limit };
  return { opts };
}

// ---------------------------------------------------------------------------------------------
// The match
// ---------------------------------------------------------------------------------------------

class Vandatta {
  constructor(players, opts, dealer, mutant) {
    this.n = players;
    this.opts = opts;
    this.mutant = mutant;
    this.deals = [];
    this.totals = new Array(players).fill(0);
    this.out = new Array(players).fill(false); // eliminated under target (V12)
    this.winners = null;
    this.dealer = mutant === 'hardcoded_dealer' ? 0 : dealer;
    this.startDeal();
  }

  // ----- table --------------------------------------------------------------------------------

  activeSeats() {
    return [...Array(this.n).keys()].filter((s) => !this.out[s]);
  }

  /** The next seat clockwise that is still in (V12: players who are out are skipped). */
  nextActive(seat) {
    let s = seat;
    do s = (s + 1) % this.n; while (this.out[s]);
    return s;
  }

  /** Seats clockwise starting after `seat`, `seat` itself last, active ones only. */
  roundFrom(seat, includeSelf) {
    const seats = [];
    for (let i = 1; i <= this.n; i++) {
      const s = (seat + i) % this.n;
      if (this.out[s] || (s === seat && !includeSelf)) continue;
      seats.push(s);
    }
    return seats;
  }

  /** Packs in play: decks option, auto = 1 up to five players in, else 2 (§3.1, V12). */
  packCount() {
    const d = this.opts.decks;
    if (d !== 'auto') return d;
    const inPlay = this.activeSeats().length;
    if (this.mutant === 'one_pack_for_six' && inPlay === 6) return 1;
    return inPlay <= 5 ? 1 : 2;
  }

  pack() {
    return makePack(this.packCount(), this.opts.deck_strip === 'remove_2_to_5');
  }

  // ----- deal setup ---------------------------------------------------------------------------

  /** A fresh deal waits for its shuffle (records.md: each deal starts with one). */
  startDeal() {
    this.phase = 'shuffle';
    this.hands = Array.from({ length: this.n }, () => []);
    this.stock = []; // index 0 is the top
    this.discard = []; // last element is the top
    this.named = null; // the suit named by the 8 on top
    this.jobs = [];
    this.blockCount = 0;
    this.penaltyDue = new Array(this.n).fill(false); // lappen said, penalty if not out next turn
    this.announced = new Array(this.n).fill(false); // lappen said for the current state (V7)
    this.turn = null;
  }

  /** Deal one at a time from the dealer's left (records.md), then turn up the first discard. */
  applyShuffle(cards) {
    const seats = this.roundFrom(this.dealer, true);
    const pack = cards.slice();
    for (let i = 0; i < this.opts.hand_size; i++) {
      for (const s of seats) this.hands[s].push(pack.shift());
    }
    this.stock = pack;
    this.jobs = [{ kind: 'turnup' }, { kind: 'startTurn', seat: seats[0], extra: false }];
    this.run();
  }

  /**
   * Turn the top stock card. An 8 is buried (VAN-1, V6) or put at the bottom, unless the whole
   * stock is eights (H8). A turned-up Ace makes everyone draw one from the dealer's left (VAN-2).
   */
  turnUp() {
    const card = this.stock.shift();
    if (isEight(card) && !this.stock.every(isEight)) {
      if (this.opts.turnup_eight === 'bottom') {
        this.stock.push(card); // no bury event for `bottom` (V14)
        return true; // the turn-up job runs again
      }
      this.discard.push(card); // face up, in view, until the bury event puts it back
      this.phase = 'bury';
      return false;
    }
    this.jobs.shift();
    this.discard.push(card);
    this.named = isEight(card) ? suitOf(card) : null; // H8: the eight's own suit
    if (isAce(card) && this.opts.turnup_ace_all_draw) {
      const draws = this.roundFrom(this.dealer, true).map((s) => ({ kind: 'draw', seat: s }));
      this.jobs.unshift(...draws);
    }
    return true;
  }

  // ----- the automatic sequence ---------------------------------------------------------------

  /**
   * Run queued automatic steps (turn-up, forced draws, lappen checks) until a decision or a chance
   * event is needed. Each step returns true to go on, false to wait.
   */
  run() {
    this.phase = 'run';
    while (this.jobs.length > 0 && this.phase === 'run') {
      const job = this.jobs[0];
      const goOn = this.step(job);
      if (!goOn) return;
    }
  }

  step(job) {
    switch (job.kind) {
      case 'turnup': return this.turnUp();
      case 'draw': return this.forcedDraw(job);
      case 'passOn': this.jobs.shift(); this.passOn(job.seat); return true;
      case 'announce': this.jobs.shift(); return this.announce(job.seat);
      case 'startTurn': this.jobs.shift(); this.startTurn(job.seat, job.extra); return false;
      case 'resume': this.jobs.shift(); this.phase = 'decide'; return false;
      default: throw new Error('unknown job ' + job.kind);
    }
  }

  canReshuffle() {
    return this.opts.empty_stock === 'reshuffle' && this.discard.length > 1;
  }

  /** Some card can be drawn now: from the stock, or after a reshuffle (V1). */
  canDrawCard() {
    return this.stock.length > 0 || this.canReshuffle();
  }

  /**
   * Draw one card for a seat. On an empty stock a reshuffle event is awaited (V1); with nothing to
   * reshuffle the draw is skipped (V11, §3.5.2).
   */
  forcedDraw(job) {
    if (this.stock.length === 0) {
      if (this.canReshuffle()) {
        this.phase = 'reshuffle';
        return false;
      }
      this.jobs.shift();
      return true;
    }
    this.jobs.shift();
    this.hands[job.seat].push(this.stock.shift());
    this.blockCount = 0; // V4: any card drawn resets the count
    this.handChanged(job.seat);
    return true;
  }

  /** Reshuffle: the discard pile but its top card becomes the stock, in the given order (V1). */
  applyReshuffle(cards) {
    this.discard = [this.discard[this.discard.length - 1]];
    this.stock = cards.slice();
    this.run();
  }

  startTurn(seat, extra) {
    this.turn = { seat, draws: 0, drew: false, extra };
    this.phase = 'decide';
  }

  // ----- lappen (VAN-13, VAN-14, V7) ----------------------------------------------------------

  inLappenState(hand) {
    if (hand.length === 0 || !hand.every(isOrdinary)) return false;
    if (this.opts.lappen_states === 'single_card_only') return hand.length === 1; // VAN-14
    return hand.every((c) => rankOf(c) === rankOf(hand[0]));
  }

  /** V7: the announcement for a state lapses once the hand leaves lappen state. */
  handChanged(seat) {
    if (!this.inLappenState(this.hands[seat])) this.announced[seat] = false;
  }

  penaltyDraws(seat) {
    return Array.from({ length: this.opts.lappen_penalty }, () => ({ kind: 'draw', seat }));
  }

  /**
   * A seat's turn passes on (V7): first the penalty of an announcement made at the end of its
   * previous turn (default and `both`), then the check for a new announcement, then the next seat.
   */
  passOn(seat) {
    const trigger = this.opts.lappen_penalty_trigger;
    const steps = [];
    if (trigger !== 'not_announced' && this.penaltyDue[seat]) {
      this.penaltyDue[seat] = false;
      steps.push(...this.penaltyDraws(seat));
    }
    steps.push({ kind: 'announce', seat });
    steps.push({ kind: 'startTurn', seat: this.nextActive(seat), extra: false });
    this.jobs.unshift(...steps);
  }

  /** The announcement check; returns false when a lappen / no_lappen decision is awaited. */
  announce(seat) {
    if (!this.inLappenState(this.hands[seat])) return true;
    const trigger = this.opts.lappen_penalty_trigger;
    if (trigger === 'announced_but_not_out') {
      this.penaltyDue[seat] = true; // automatic announcement (VAN-13 default)
      return true;
    }
    if (this.announced[seat]) {
      if (trigger === 'both') this.penaltyDue[seat] = true; // V7: counts as announced again
      return true;
    }
    this.lappenSeat = seat;
    this.phase = 'lappen';
    return false;
  }

  applyLappen(say) {
    const seat = this.lappenSeat;
    const trigger = this.opts.lappen_penalty_trigger;
    if (say) {
      this.announced[seat] = true;
      if (trigger === 'both') this.penaltyDue[seat] = true;
    } else {
      const skip = this.mutant === 'no_lappen_penalty_not_announced' && trigger === 'not_announced';
      if (!skip) this.jobs.unshift(...this.penaltyDraws(seat)); // silence costs the cards at once
    }
    this.run();
  }

  // ----- legal plays (§3.3 table, VAN-5..VAN-12, VAN-19, V8, V10) -----------------------------

  top() {
    return this.discard[this.discard.length - 1];
  }

  /** May a play of `count` cards (all ordinary or not) be made, as far as going out goes? */
  mayLeave(count, allOrdinary) {
    if (count < this.hands[this.turn.seat].length) return true;
    if (!allOrdinary) return false; // VAN-11: never out on an 8 or an Ace
    return !(this.turn.extra && this.opts.go_out_in_ace_extra_turn === 'forbidden'); // VAN-12, V8
  }

  /** Single-card plays allowed on the top card, as events. */
  singlePlays(seat) {
    const top = this.top();
    const plays = [];
    const distinct = [...new Set(this.hands[seat])];
    for (const c of distinct) {
      if (!this.mayLeave(1, isOrdinary(c))) continue;
      if (isEight(c)) {
        if (this.eightAllowed(top)) for (const s of SUITS) plays.push(playEvent(seat, [c], s));
      } else if (isAce(c)) {
        if (this.aceAllowed(c, top)) plays.push(playEvent(seat, [c]));
      } else if (this.ordinaryAllowed(c, top)) {
        plays.push(playEvent(seat, [c]));
      }
    }
    return plays;
  }

  /** An 8 goes on any ordinary top, naming any suit (VAN-10); never on an 8 or an Ace. */
  eightAllowed(top) {
    if (isAce(top)) return this.mutant === 'eight_on_ace';
    return isOrdinary(top);
  }

  /** An Ace goes on an ordinary card of its suit, or on an Ace unless ace_on_ace = false (V8). */
  aceAllowed(card, top) {
    if (isAce(top)) return this.opts.ace_on_ace;
    if (isEight(top)) return false;
    return suitOf(card) === suitOf(top);
  }

  /** The suit an ordinary card must follow: the named suit on an 8, the top's suit otherwise. */
  suitToFollow(top) {
    return isEight(top) ? this.named : suitOf(top);
  }

  /** One ordinary card: suit or rank on an ordinary top; the suit only on an Ace or an 8. */
  ordinaryAllowed(card, top) {
    if (suitOf(card) === this.suitToFollow(top)) return true;
    return isOrdinary(top) && rankOf(card) === rankOf(top);
  }

  /** Whether the first card of a group of two or more may start it (VAN-5, VAN-19). */
  groupFirstAllowed(card, top) {
    if (!isOrdinary(top)) return suitOf(card) === this.suitToFollow(top);
    if (suitOf(card) === suitOf(top)) return true;
    return this.opts.multi_first_card === 'suit_or_rank' && rankOf(card) === rankOf(top);
  }

  /** Groups: two or more ordinary cards of one rank, every distinct order (V10). */
  groupPlays(seat) {
    const top = this.top();
    if (!this.opts.multi_play) return [];
    if (!isOrdinary(top) && !this.opts.multi_on_special_top) return [];
    const byRank = new Map();
    for (const c of this.hands[seat]) {
      if (!isOrdinary(c)) continue; // VAN-6: no Aces or 8s in groups
      if (!byRank.has(rankOf(c))) byRank.set(rankOf(c), []);
      byRank.get(rankOf(c)).push(c);
    }
    const plays = [];
    for (const cards of byRank.values()) {
      if (cards.length < 2) continue;
      for (const first of new Set(cards)) {
        if (!this.groupFirstAllowed(first, top)) continue;
        const rest = removeCards(cards, [first]);
        for (const tail of sequences(rest)) {
          if (this.mayLeave(1 + tail.length, true)) plays.push(playEvent(seat, [first, ...tail]));
        }
      }
    }
    return plays;
  }

  legalPlays(seat) {
    return [...this.singlePlays(seat), ...this.groupPlays(seat)];
  }

  // ----- decisions ----------------------------------------------------------------------------

  drawLimit() {
    return this.opts.max_draws + (this.mutant === 'draw_limit_4' ? 1 : 0);
  }

  /** Legal decisions of the seat to move (§3.3, V2, V3, VAN-4, VAN-24). */
  decisions() {
    const { seat, draws } = this.turn;
    const plays = this.legalPlays(seat);
    const events = plays.slice();
    const physical = this.canDrawCard();
    if (draws < this.drawLimit() && physical && (this.opts.voluntary_draw || plays.length === 0)) {
      events.push({ action: 'draw', seat });
    }
    if (draws >= this.opts.max_draws || (!physical && plays.length === 0)) {
      events.push({ action: 'pass', seat });
    }
    return events;
  }

  applyPlay(event) {
    const seat = this.turn.seat;
    const cards = event.cards;
    this.hands[seat] = removeCards(this.hands[seat], cards);
    this.discard.push(...cards);
    this.named = isEight(cards[0]) ? event.suit : null;
    this.blockCount = 0;
    this.handChanged(seat);
    if (this.hands[seat].length === 0) return this.endDeal(seat, false);
    this.jobs = [];
    if (isAce(cards[0])) {
      // Ace effect: the others draw one each from the player's left (VAN-8), then the same
      // player takes an extra turn with a fresh draw allowance (VAN-4), still the same turn.
      this.jobs = this.roundFrom(seat, false).map((s) => ({ kind: 'draw', seat: s }));
      if (this.mutant !== 'no_extra_turn_after_ace') {
        this.jobs.push({ kind: 'startTurn', seat, extra: true });
        return this.run();
      }
    }
    this.jobs.push({ kind: 'passOn', seat }); // an 8 or ordinary play: the turn passes on
    return this.run();
  }

  applyDraw() {
    const seat = this.turn.seat;
    this.turn.draws += 1;
    this.turn.drew = true;
    this.jobs = [{ kind: 'draw', seat }, { kind: 'resume' }];
    this.run();
  }

  /** A pass; a pass of a segment that drew nothing counts towards a blocked deal (V4). */
  applyPass() {
    const seat = this.turn.seat;
    if (!this.turn.drew) this.blockCount += 1;
    if (this.blockCount >= this.activeSeats().length) return this.endDeal(null, true);
    this.jobs = [{ kind: 'passOn', seat }];
    return this.run();
  }

  // ----- scoring and match end (§3.4, VAN-16, VAN-18, VAN-20, V5, V12, R10) -------------------

  cardPoints(card) {
    const swedish = this.opts.scoring === 'swedish' && this.mutant !== 'swedish_scoring_wrong';
    if (swedish) {
      if (isEight(card)) return 25;
      if (isAce(card)) return 15;
      return 'TJQK'.includes(rankOf(card)) ? 10 : 5;
    }
    if (isEight(card)) return 10;
    if (isAce(card)) return this.mutant === 'ace_penalty_wrong' ? 4 : 5;
    return 1;
  }

  handPoints(seat) {
    return this.hands[seat].reduce((sum, c) => sum + this.cardPoints(c), 0);
  }

  /** End the deal: `winner` went out (scores 0), or the deal is blocked. */
  endDeal(winner, blocked) {
    this.jobs = [];
    const scores = new Array(this.n).fill(0);
    const active = this.activeSeats();
    for (const s of active) if (s !== winner) scores[s] = this.handPoints(s);
    if (blocked && this.opts.blocked === 'lowest_hand_scores_zero') {
      const low = Math.min(...active.map((s) => scores[s]));
      for (const s of active) if (scores[s] === low) scores[s] = 0; // V5: every tied lowest
    }
    this.deals.push(blocked ? { scores, blocked: true } : { scores });
    scores.forEach((v, s) => { this.totals[s] += v; });
    this.afterDeal(active);
  }

  afterDeal(active) {
    const { mode, limit } = this.opts.length;
    if (mode === 'deals') {
      if (this.deals.length >= limit) return this.finish(active);
      this.dealer = (this.dealer + 1) % this.n;
      return this.startDeal();
    }
    // Elimination at the target (V12).
    const goingOut = active.filter((s) => this.totals[s] >= limit);
    for (const s of goingOut) this.out[s] = true;
    const left = this.activeSeats();
    if (left.length <= 1) return this.finish(left.length === 1 ? left : goingOut);
    this.dealer = this.nextActive(this.dealer); // V12: the deal passes to the next seat still in
    return this.startDeal();
  }

  /** The match is over: lowest total among the candidates wins, ties shared (R10). */
  finish(candidates) {
    const low = Math.min(...candidates.map((s) => this.totals[s]));
    this.winners = candidates.filter((s) => this.totals[s] === low).sort((a, b) => a - b);
    this.phase = 'over';
  }

  // ----- protocol views -----------------------------------------------------------------------

  toMove() {
    switch (this.phase) {
      case 'over': return null;
      case 'shuffle': case 'bury': case 'reshuffle': return 'chance';
      case 'lappen': return this.lappenSeat;
      default: return this.turn.seat;
    }
  }

  legal() {
    switch (this.phase) {
      case 'over': return [];
      case 'shuffle': return [{ cards: this.pack(), chance: 'shuffle' }];
      case 'reshuffle': return [{ cards: this.discard.slice(0, -1), chance: 'reshuffle' }];
      case 'bury':
        return Array.from({ length: this.stock.length + 1 }, (_, k) => ({ chance: 'bury', position: k }));
      case 'lappen':
        return [{ action: 'lappen', seat: this.lappenSeat }, { action: 'no_lappen', seat: this.lappenSeat }];
      default: return this.decisions();
    }
  }

  result() {
    const complete = this.phase === 'over';
    const answer = {
      ok: true,
      complete,
      deals: this.deals,
      totals: this.totals,
      winners: complete ? this.winners : [],
    };
    if (!complete) {
      answer.to_move = this.toMove();
      answer.legal = this.legal();
    }
    return answer;
  }

  observe(seat) {
    const hand = this.hands.map((h, s) => {
      if (s === seat || this.mutant === 'leaks_hands') return sortCards(h);
      return h.length;
    });
    return {
      seat,
      to_move: this.toMove(),
      // Before a deal's shuffle the whole pack lies face down: it counts as the stock.
      zones: { stock: this.phase === 'shuffle' ? this.pack().length : this.stock.length, discard: this.discard.slice(), hand },
    };
  }

  // ----- apply --------------------------------------------------------------------------------

  /** Apply an event; returns null on success or an error message (state unchanged then). */
  apply(event) {
    if (this.phase === 'over') return 'the match is over (R5)';
    if (!event || typeof event !== 'object' || Array.isArray(event)) return 'malformed event: not an object';
    if ('chance' in event) return this.applyChance(event);
    if ('action' in event) return this.applyDecision(event);
    return 'malformed event: neither chance nor action';
  }

  applyChance(event) {
    const kind = event.chance;
    const expected = ['shuffle', 'bury', 'reshuffle'].includes(this.phase) ? this.phase : null;
    if (kind !== expected) return `illegal: expected ${expected ? expected : 'a decision'}, got chance ${JSON.stringify(kind)}`;
    if (kind === 'bury') {
      if (!sameKeys(event, ['chance', 'position'])) return 'malformed bury event';
      const k = event.position;
      if (!Number.isInteger(k) || k < 0 || k > this.stock.length) return `illegal bury position ${JSON.stringify(k)} (V6)`;
      this.stock.splice(k, 0, this.discard.pop());
      this.run();
      return null;
    }
    if (!sameKeys(event, ['chance', 'cards']) || !Array.isArray(event.cards)) return `malformed ${kind} event`;
    const cards = event.cards.map(parseCard);
    if (cards.some((c) => c === null)) return `malformed ${kind} event: bad card code`;
    const template = this.legal()[0].cards;
    if (!sameMultiset(cards, template)) return `illegal ${kind}: not a permutation of the ${kind === 'shuffle' ? 'pack' : 'discard pile without its top card'} (R2)`;
    if (kind === 'shuffle') this.applyShuffle(cards);
    else {
      if (this.mutant === 'crash_on_reshuffle') {
        process.stderr.write('crash_on_reshuffle: giving up at a reshuffle\n');
        process.exit(3);
      }
      this.applyReshuffle(cards);
    }
    return null;
  }

  applyDecision(event) {
    const norm = normalizeDecision(event);
    if (typeof norm === 'string') return norm;
    if (this.phase === 'shuffle' || this.phase === 'bury' || this.phase === 'reshuffle') {
      return 'illegal: a chance event is expected';
    }
    const text = canonicalText(norm);
    const legal = this.legal();
    if (!legal.some((e) => canonicalText(e) === text)) {
      return `illegal ${norm.action} by seat ${norm.seat}` + this.why(norm);
    }
    switch (norm.action) {
      case 'play': this.applyPlay(norm); break;
      case 'draw': this.applyDraw(); break;
      case 'pass': this.applyPass(); break;
      case 'lappen': this.applyLappen(true); break;
      case 'no_lappen': this.applyLappen(false); break;
      default: return `illegal action ${norm.action}`;
    }
    return null;
  }

  /** A short reason for an illegal decision, citing the rule where one applies. */
  why(ev) {
    if (ev.seat !== this.toMove()) return `: seat ${this.toMove()} is to move`;
    if (ev.action === 'pass') return ': pass only after max_draws draws or when nothing can be drawn or played (V2)';
    if (ev.action === 'draw') return ': draw limit reached, nothing to draw, or voluntary_draw = false (V3)';
    if (ev.action === 'play' && 'suit' in ev && !isEight(ev.cards[0])) return ': a suit is named only on an eight (R6)';
    return '';
  }
}

/** Every distinct ordered sequence of one or more cards drawn from a multiset. */
function sequences(cards) {
  const out = [];
  for (const c of new Set(cards)) {
    out.push([c]);
    for (const tail of sequences(removeCards(cards, [c]))) out.push([c, ...tail]);
  }
  return out;
}

function playEvent(seat, cards, suit) {
  const e = { action: 'play', cards, seat };
  if (suit !== undefined) e.suit = suit;
  return e;
}

function sameKeys(obj, keys) {
  const have = Object.keys(obj).sort();
  return have.length === keys.length && have.every((k, i) => k === keys.slice().sort()[i]);
}

/** Parse a decision to its canonical form (R6, R6b); returns the event or an error message. */
function normalizeDecision(event) {
  const action = event.action;
  if (!Number.isInteger(event.seat)) return 'malformed event: seat must be an integer';
  if (['draw', 'pass', 'lappen', 'no_lappen'].includes(action)) {
    if (!sameKeys(event, ['action', 'seat'])) return `malformed ${action} event: unknown fields (R6)`;
    return { action, seat: event.seat };
  }
  if (action !== 'play') return `malformed event: unknown action ${JSON.stringify(action)}`;
  const keys = Object.keys(event);
  if (keys.some((k) => !['action', 'seat', 'cards', 'suit'].includes(k))) return 'malformed play event: unknown fields (R6)';
  if (!Array.isArray(event.cards) || event.cards.length === 0) return 'malformed play event: cards must be a non-empty list';
  const cards = event.cards.map(parseCard);
  if (cards.some((c) => c === null)) return 'malformed play event: bad card code';
  const e = { action: 'play', cards, seat: event.seat };
  if ('suit' in event) {
    const s = parseSuit(event.suit);
    if (s === null) return 'malformed play event: a suit is C, D, H or S (R6b)';
    e.suit = s;
  }
  return e;
}

// ---------------------------------------------------------------------------------------------
// The protocol loop
// ---------------------------------------------------------------------------------------------

/** Handle `new`: validate the table (H3, V13) and options; returns [match, error]. */
function newMatch(req, mutant) {
  if (req.game !== 'vandatta') return [null, `unknown game ${JSON.stringify(req.game)}`];
  const n = req.players;
  if (!Number.isInteger(n) || n < 2 || n > 14) return [null, `players must be 2..14 (V13), got ${JSON.stringify(n)}`];
  const dealer = req.dealer === undefined || req.dealer === null ? 0 : req.dealer;
  if (!Number.isInteger(dealer) || dealer < 0 || dealer >= n) return [null, `bad dealer ${JSON.stringify(req.dealer)}`];
  const { opts, error } = resolveOptions(req.options);
  if (error) return [null, error];
  const match = new Vandatta(n, opts, dealer, mutant);
  const size = match.pack().length;
  if (opts.hand_size * n + 1 > size) {
    return [null, `not offered: ${n} players with hand_size ${opts.hand_size} need more than ${size} cards (V13)`];
  }
  return [match, null];
}

function main() {
  const args = process.argv.slice(2);
  let mutant = null;
  const at = args.indexOf('--mutant');
  if (at >= 0) {
    mutant = args[at + 1];
    if (!MUTANTS.has(mutant)) {
      process.stderr.write(`unknown mutant ${mutant}\n`);
      process.exit(2);
    }
  }
  let match = null;
  let applied = 0;
  let hung = false;
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  const answer = (obj) => { if (!hung) process.stdout.write(JSON.stringify(obj) + '\n'); };

  rl.on('line', (line) => {
    if (line.trim() === '') return;
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      return answer({ ok: false, error: 'malformed request: not JSON' });
    }
    if (!req || typeof req !== 'object' || Array.isArray(req)) return answer({ ok: false, error: 'malformed request' });
    if (req.op === 'quit') return process.exit(0);
    if (hung) return;
    const reply = handle(req);
    answer(reply);
    if (mutant === 'hang_after_20' && applied >= 20) hung = true;
  });
  rl.on('close', () => process.exit(0));

  function handle(req) {
    try {
      return dispatch(req);
    } catch (e) {
      process.stderr.write(String(e && e.stack ? e.stack : e) + '\n');
      return { ok: false, error: 'internal error: ' + String(e && e.message) };
    }
  }

  function dispatch(req) {
    if (req.op === 'new') {
      const [m, error] = newMatch(req, mutant);
      if (error) return { ok: false, error };
      match = m;
      return { ok: true };
    }
    if (!['to_move', 'legal', 'apply', 'result', 'observe'].includes(req.op)) {
      return { ok: false, error: `unknown op ${JSON.stringify(req.op)}` };
    }
    if (!match) return { ok: false, error: 'no match: send new first' };
    switch (req.op) {
      case 'to_move': return { ok: true, to_move: match.toMove() };
      case 'legal': return { ok: true, legal: match.legal() };
      case 'result': return match.result();
      case 'observe': {
        if (!Number.isInteger(req.seat) || req.seat < 0 || req.seat >= match.n) return { ok: false, error: 'bad seat' };
        return { ok: true, observation: match.observe(req.seat) };
      }
      default: return applyRequest(req);
    }
  }

  function applyRequest(req) {
    const event = req.event;
    const error = match.apply(event);
    if (error === null) {
      applied += 1;
      return { ok: true };
    }
    const isDecision = event && typeof event === 'object' && !('chance' in event);
    if (mutant === 'accepts_anything' && isDecision) return { ok: true };
    return { ok: false, error };
  }
}

main();
