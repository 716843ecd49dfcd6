/* The timed search of the levels `hard` and `max` in C: games/ai/search.py's iterative-deepening
 * negamax (principal-variation search, aspiration windows at the root, late-move reductions,
 * a transposition table, killer moves, the history heuristic, quiescence, the time management)
 * over one game's rules, included by oware_kernel.c and lasca_kernel.c after they define:
 *
 *   Game, Move                     the game's search state (a stack of positions) and a move
 *   G_MAX_MOVES                    the most moves of a position
 *   g_expand(g, ply, moves, &n)    the position's result for the side to move (WIN, -WIN, 0, or
 *                                  a table's WIN - k) or TS_NONE with its n moves in the adapter's
 *                                  order (ply 0 is the root)
 *   g_play(g, move), g_undo(g)     a move on the stack and back
 *   g_evaluate(g), g_key(g)        the static score for the side to move; the table's key (two
 *                                  positions of one key are both finished by the rules or both
 *                                  not: the table is probed before g_expand)
 *   g_tactics(g, moves, n, loud)   whether the moves are forced (no standing pat); loud[k] set for
 *                                  the moves worth searching past the horizon
 *   g_move_id(move)                a number naming the move (the same move, the same number)
 *   G_FUTILITY                     0, or the margin a ply of reverse futility pruning (below)
 *
 * Every rule and every number is search.py's, so a search to a fixed depth without reductions
 * and without the table's cut-offs gives search.py's score (the tests compare the two); what
 * differs is what C buys, about ten times the nodes in the same time, and what a fixed-size
 * table asks: the table (TS_TABLE_BITS entries, 16 bytes each, always replaced, a 32-bit check
 * of the key) lives in the module from one call to the next, as search_player.py's kept tables
 * do, its keys salted with the rules, the evaluation and the quiescence, so a move starts from
 * what the last search (or a ponder) of the same game saw; history counts are kept by move
 * number modulo TS_HISTORY. With reductions a game may add reverse futility pruning
 * (G_FUTILITY, Lasca's): a quiet position (no forced move) one or two plies from the horizon,
 * off the principal variation, whose static score less G_FUTILITY a ply still reaches beta,
 * returns that without a search.
 *
 * A kernel includes this file twice: first for the constants (TS_WIN, TS_NONE, TS_STACK, ...),
 * then, after its game, for the search.
 *
 * The clock is a Python callable read every TS_CHECK_EVERY + 1 nodes: past the deadline (or on an
 * error in the clock) the current iteration is abandoned, as in search.py.
 */
#ifndef TIMED_SEARCH_CONSTANTS
#define TIMED_SEARCH_CONSTANTS
#include <math.h>
#include <stdint.h>

#define TS_WIN 1000000
#define TS_MATE_ZONE (TS_WIN - 10000)
#define TS_INF (10 * TS_WIN)
#define TS_NONE (-20 * TS_WIN)
#define TS_MAX_PLY 128
#define TS_STACK (TS_MAX_PLY + 64)
#define TS_CHECK_EVERY 1023
#define TS_TABLE_BITS 20
#define TS_ASPIRATION 40
#define TS_ASPIRATION_FROM 4
#define TS_LMR_DEPTH 3
#define TS_LMR_AFTER 2
#define TS_LMR_MORE 6
#define TS_DROP 30
#define TS_GROWTH_LOW 1.5
#define TS_GROWTH_HIGH 8.0
#define TS_SETTLED 4
#define TS_SETTLED_SHARE 0.25
#define TS_HISTORY 4096
#define TS_ROOT_MOVES 256

#else

enum { TS_EXACT, TS_LOWER, TS_UPPER, TS_EMPTY };

typedef struct {
    uint32_t check; /* the key's high half (its low bits are the entry's index) */
    int32_t value;
    int32_t move; /* g_move_id of the best move */
    int8_t depth, flag;
} TsEntry;

static TsEntry *ts_table;

typedef struct {
    Game *g;
    uint64_t salt;
    int use_table, reductions, quiescence, root_depth, stopped, failed, has_deadline;
    long long nodes;
    PyObject *clock;
    double deadline;
    int killers[TS_MAX_PLY + 1][2];
    int killer_count[TS_MAX_PLY + 1];
    long long history[TS_HISTORY];
    int partial_move, partial_value, has_partial;
    Move moves[TS_STACK][G_MAX_MOVES];
} Ts;

static int ts_distance(int terminal, int ply) {
    return terminal > 0 ? terminal - ply : terminal < 0 ? terminal + ply : 0;
}

static int ts_to_tt(int v, int ply) {
    return v >= TS_MATE_ZONE ? v + ply : v <= -TS_MATE_ZONE ? v - ply : v;
}

static int ts_from_tt(int v, int ply) {
    return v >= TS_MATE_ZONE ? v - ply : v <= -TS_MATE_ZONE ? v + ply : v;
}

/* The clock, or NAN with the error set. */
static double ts_now(Ts *t) {
    PyObject *value = PyObject_CallNoArgs(t->clock);
    if (!value) {
        return NAN;
    }
    double now = PyFloat_AsDouble(value);
    Py_DECREF(value);
    return (now == -1.0 && PyErr_Occurred()) ? NAN : now;
}

static void ts_tick(Ts *t) {
    if (!t->has_deadline || t->stopped) {
        return;
    }
    double now = ts_now(t);
    if (isnan(now)) {
        t->stopped = t->failed = 1;
    } else if (now > t->deadline) {
        t->stopped = 1;
    }
}

static void ts_count(Ts *t) {
    t->nodes++;
    if (!(t->nodes & TS_CHECK_EVERY)) {
        ts_tick(t);
    }
}

static int ts_quiesce(Ts *t, Move *moves, int count, int alpha, int beta, int ply, int left) {
    Game *g = t->g;
    if (left <= 0 || ply >= TS_MAX_PLY || ply + 1 >= TS_STACK) {
        return g_evaluate(g);
    }
    unsigned char loud[G_MAX_MOVES];
    int forced = g_tactics(g, moves, count, loud), tactical = 0, best;
    for (int k = 0; k < count; k++) {
        tactical += loud[k];
    }
    if (forced) {
        best = -TS_INF;
    } else {
        best = g_evaluate(g);
        if (best >= beta || !tactical) {
            return best;
        }
        if (best > alpha) {
            alpha = best;
        }
    }
    for (int k = 0; k < count; k++) {
        if (!loud[k]) {
            continue;
        }
        g_play(g, &moves[k]);
        ts_count(t);
        if (t->stopped) {
            g_undo(g);
            return 0;
        }
        int n, value;
        Move *child = t->moves[ply + 1];
        int terminal = g_expand(g, ply + 1, child, &n);
        if (terminal != TS_NONE) {
            value = -ts_distance(terminal, ply + 1);
        } else {
            value = -ts_quiesce(t, child, n, -beta, -alpha, ply + 1, left - 1);
        }
        g_undo(g);
        if (t->stopped) {
            return 0;
        }
        if (value > best) {
            best = value;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) {
                    break;
                }
            }
        }
    }
    return best;
}

/* search.py's `_order`: by history (stable), the table's move and the killers first. */
static void ts_order(Ts *t, Move *moves, int count, int hint, int has_hint, int ply) {
    if (count < 2) {
        return;
    }
    long long keys[G_MAX_MOVES];
    for (int k = 0; k < count; k++) {
        keys[k] = t->history[(unsigned)g_move_id(&moves[k]) % TS_HISTORY];
    }
    for (int i = 1; i < count; i++) {
        for (int j = i; j > 0 && keys[j - 1] < keys[j]; j--) {
            long long key = keys[j];
            Move move = moves[j];
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            keys[j - 1] = key;
            moves[j - 1] = move;
        }
    }
    int front = 0, wanted[3], wanted_count = 0;
    if (has_hint) {
        wanted[wanted_count++] = hint;
    }
    for (int k = 0; k < t->killer_count[ply]; k++) {
        wanted[wanted_count++] = t->killers[ply][k];
    }
    for (int w = 0; w < wanted_count; w++) {
        for (int k = front; k < count; k++) {
            if (g_move_id(&moves[k]) == wanted[w]) {
                Move move = moves[k];
                memmove(&moves[front + 1], &moves[front], (size_t)(k - front) * sizeof(Move));
                moves[front++] = move;
                break;
            }
        }
    }
}

static void ts_reward(Ts *t, const Move *move, int ply, int depth) {
    int id = g_move_id(move), count = t->killer_count[ply];
    int known = 0;
    for (int k = 0; k < count; k++) {
        known |= t->killers[ply][k] == id;
    }
    if (!known) {
        t->killers[ply][1] = t->killers[ply][0];
        t->killers[ply][0] = id;
        t->killer_count[ply] = count < 2 ? count + 1 : 2;
    }
    t->history[(unsigned)id % TS_HISTORY] += (long long)depth * depth;
}

/* search.py's `_quiet`: the position leaves its side to move a free choice. */
static int ts_quiet(Ts *t, int ply) {
    if (ply + 1 >= TS_STACK) {
        return 0;
    }
    int n;
    Move *moves = t->moves[ply + 1];
    if (g_expand(t->g, ply, moves, &n) != TS_NONE) {
        return 0;
    }
    unsigned char loud[G_MAX_MOVES];
    return !g_tactics(t->g, moves, n, loud);
}

static int ts_negamax(Ts *t, int depth, int alpha, int beta, int ply) {
    Game *g = t->g;
    ts_count(t);
    if (t->stopped) {
        return 0;
    }
    int interior = depth > 0 && ply < TS_MAX_PLY && ply + 1 < TS_STACK;
    int hint = 0, has_hint = 0;
    uint64_t key = 0;
    TsEntry *entry = NULL;
    if (interior && t->use_table) {
        /* Before the moves are generated: a cut-off here saves that work (g_key tells apart
         * what the rules would end). */
        key = g_key(g) ^ t->salt;
        entry = &ts_table[key & ((1u << TS_TABLE_BITS) - 1)];
        if (entry->flag != TS_EMPTY && entry->check == (uint32_t)(key >> 32)) {
            hint = entry->move;
            has_hint = 1;
            if (t->use_table > 1 && entry->depth >= depth) {
                int value = ts_from_tt(entry->value, ply);
                if (entry->flag == TS_EXACT) {
                    return value;
                }
                if (entry->flag == TS_LOWER ? value >= beta : value <= alpha) {
                    return value;
                }
            }
        }
    }
    int count;
    Move *moves = t->moves[ply];
    int terminal = g_expand(g, ply, moves, &count);
    if (terminal != TS_NONE) {
        return ts_distance(terminal, ply);
    }
    if (!interior) {
        return ts_quiesce(t, moves, count, alpha, beta, ply, t->quiescence);
    }
#if G_FUTILITY
    /* Reverse futility (the game's choice, with reductions only): a quiet position a ply or two
     * from the horizon, off the principal variation, whose static score beats beta by a margin a
     * ply is not searched: it is worth at least that. */
    if (t->reductions && depth <= 2 && beta - alpha == 1 && abs(beta) < TS_MATE_ZONE) {
        unsigned char quiet_loud[G_MAX_MOVES];
        if (!g_tactics(g, moves, count, quiet_loud)) {
            int stand = g_evaluate(g) - G_FUTILITY * depth;
            if (stand >= beta) {
                return stand;
            }
        }
    }
#endif
    ts_order(t, moves, count, hint, has_hint, ply);
    int extend = count == 1 && ply < 2 * t->root_depth + 4;
    int next = extend ? depth : depth - 1;
    unsigned char loud[G_MAX_MOVES];
    int reduce = t->reductions && depth >= TS_LMR_DEPTH && count > TS_LMR_AFTER;
    if (reduce) {
        /* g_tactics reads the moves' own order: loud is by the order just made */
        reduce = !g_tactics(g, moves, count, loud);
    }
    int start_alpha = alpha, best = -TS_INF, best_move = g_move_id(&moves[0]);
    for (int k = 0; k < count; k++) {
        g_play(g, &moves[k]);
        int value;
        if (k == 0) {
            value = -ts_negamax(t, next, -beta, -alpha, ply + 1);
        } else {
            if (reduce && k >= TS_LMR_AFTER && !loud[k] && ts_quiet(t, ply + 1)) {
                int cut = k >= TS_LMR_MORE && next > 2 ? 2 : 1;
                value = -ts_negamax(t, next - cut, -alpha - 1, -alpha, ply + 1);
                if (value > alpha && !t->stopped) {
                    value = -ts_negamax(t, next, -alpha - 1, -alpha, ply + 1);
                }
            } else {
                value = -ts_negamax(t, next, -alpha - 1, -alpha, ply + 1);
            }
            if (alpha < value && value < beta && !t->stopped) {
                value = -ts_negamax(t, next, -beta, -alpha, ply + 1);
            }
        }
        g_undo(g);
        if (t->stopped) {
            return 0;
        }
        if (value > best) {
            best = value;
            best_move = g_move_id(&moves[k]);
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) {
                    ts_reward(t, &moves[k], ply, depth);
                    break;
                }
            }
        }
    }
    if (entry) {
        entry->check = (uint32_t)(key >> 32);
        entry->value = ts_to_tt(best, ply);
        entry->move = best_move;
        entry->depth = (int8_t)(depth > 127 ? 127 : depth);
        entry->flag = best <= start_alpha ? TS_UPPER : best >= beta ? TS_LOWER : TS_EXACT;
    }
    return best;
}

/* search.py's `_root`: `order` (indices into the root's moves) searched with the last best
 * first; on return `order` holds the moves by their scores (the searched ones), the rest after. */
static int ts_root(Ts *t, Move *root, int *order, int count, int depth, int previous, int alpha,
                   int beta, int *best_out) {
    Game *g = t->g;
    int first[TS_ROOT_MOVES], values[TS_ROOT_MOVES], searched = 0;
    first[0] = previous;
    for (int k = 0, at = 1; k < count; k++) {
        if (order[k] != previous) {
            first[at++] = order[k];
        }
    }
    int best = first[0], best_value = -TS_INF;
    for (int index = 0; index < count; index++) {
        int move = first[index], value;
        g_play(g, &root[move]);
        if (index == 0) {
            value = -ts_negamax(t, depth - 1, -beta, -alpha, 1);
        } else {
            value = -ts_negamax(t, depth - 1, -alpha - 1, -alpha, 1);
            if (alpha < value && value < beta && !t->stopped) {
                value = -ts_negamax(t, depth - 1, -beta, -alpha, 1);
            }
        }
        g_undo(g);
        if (t->stopped) {
            return 0;
        }
        values[searched++] = value;
        if (value > best_value) {
            best_value = value;
            if (value > alpha) {
                alpha = value;
                best = move;
                if (index) {
                    t->partial_move = move;
                    t->partial_value = value;
                    t->has_partial = 1;
                }
                if (alpha >= beta) {
                    break;
                }
            }
        }
    }
    /* by value, the earlier first among equals (a stable sort), then the moves not searched */
    int sorted[TS_ROOT_MOVES];
    for (int k = 0; k < searched; k++) {
        sorted[k] = k;
    }
    for (int i = 1; i < searched; i++) {
        for (int j = i; j > 0 && values[sorted[j - 1]] < values[sorted[j]]; j--) {
            int swap = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = swap;
        }
    }
    for (int k = 0; k < searched; k++) {
        order[k] = first[sorted[k]];
    }
    for (int k = searched; k < count; k++) {
        order[k] = first[k];
    }
    *best_out = best;
    return best_value;
}

/* search.py's `_aspirated`. */
static int ts_aspirated(Ts *t, Move *root, int *order, int count, int depth, int previous,
                        int score, int *best_out) {
    if (!t->reductions || depth < TS_ASPIRATION_FROM || abs(score) >= TS_MATE_ZONE) {
        return ts_root(t, root, order, count, depth, previous, -TS_INF, TS_INF, best_out);
    }
    int alpha = score - TS_ASPIRATION, beta = score + TS_ASPIRATION;
    int saved[TS_ROOT_MOVES];
    for (;;) {
        memcpy(saved, order, (size_t)count * sizeof(int));
        int best, value = ts_root(t, root, order, count, depth, previous, alpha, beta, &best);
        if (t->stopped) {
            return 0;
        }
        if (value <= alpha) {
            alpha = -TS_INF; /* fail low: the order says nothing, keep the old one */
            memcpy(order, saved, (size_t)count * sizeof(int));
        } else if (value >= beta) {
            beta = TS_INF; /* fail high: that move first in the search again */
            previous = best;
        } else {
            *best_out = best;
            return value;
        }
    }
}

/* search.py's `another_iteration`. */
static int ts_another(const double *times, int done, double spent, double left, int settled) {
    if (left <= 0) {
        return 0;
    }
    double growth = TS_GROWTH_HIGH;
    if (done >= 2 && times[done - 2] > 0) {
        growth = times[done - 1] / times[done - 2];
        growth = growth < TS_GROWTH_LOW ? TS_GROWTH_LOW : growth > TS_GROWTH_HIGH ? TS_GROWTH_HIGH : growth;
    }
    if (times[done - 1] * growth <= left) {
        return 1;
    }
    return !(settled && spent >= TS_SETTLED_SHARE * (spent + left));
}

/* search.py's `iterate` from the root on top of g's stack: `order` the root's moves in the order
 * that decides among equal ones. The best move (an index into root), its score and the depth
 * finished; -1 with a Python error set when the clock failed. */
static int ts_iterate(Ts *t, Move *root, int *order, int count, int max_depth, int *score_out,
                      int *depth_out) {
    *score_out = *depth_out = 0;
    if (count == 1) {
        return order[0];
    }
    double began = t->has_deadline ? ts_now(t) : 0.0;
    if (isnan(began)) {
        return -1;
    }
    double times[TS_MAX_PLY + 1];
    int best = order[0], score = 0, done = 0, settled = 0;
    for (int depth = 1; depth <= max_depth && depth <= TS_MAX_PLY; depth++) {
        t->root_depth = depth;
        t->has_partial = 0;
        double started = t->has_deadline ? ts_now(t) : 0.0;
        int last_best = best, last_score = score, new_best;
        int value = ts_aspirated(t, root, order, count, depth, best, score, &new_best);
        if (t->stopped) {
            if (t->has_partial && t->partial_move != best) {
                score = t->partial_value;
                best = t->partial_move;
            }
            break;
        }
        score = value;
        best = new_best;
        done = depth;
        if (abs(score) >= TS_MATE_ZONE) {
            break;
        }
        if (t->has_deadline) {
            double now = ts_now(t);
            if (isnan(now) || isnan(started)) {
                t->failed = 1;
                break;
            }
            times[done - 1] = now - started;
            int steady = best == last_best && score >= last_score - TS_DROP;
            settled = depth > 1 && steady ? settled + 1 : 0;
            if (!ts_another(times, done, now - began, t->deadline - now, settled >= TS_SETTLED)) {
                break;
            }
        }
    }
    if (t->failed) {
        return -1;
    }
    *score_out = score;
    *depth_out = done;
    return best;
}

/* The table, made on first use; `fresh` empties it. 0, or -1 with MemoryError. */
static int ts_table_ready(int fresh) {
    size_t size = (size_t)1 << TS_TABLE_BITS;
    if (!ts_table) {
        ts_table = PyMem_RawMalloc(size * sizeof(TsEntry));
        if (!ts_table) {
            PyErr_NoMemory();
            return -1;
        }
        fresh = 1;
    }
    if (fresh) {
        for (size_t k = 0; k < size; k++) {
            ts_table[k].flag = TS_EMPTY;
            ts_table[k].check = 0;
        }
    }
    return 0;
}

/* The options every `think` takes after its position: max_depth, quiescence, reductions,
 * table (0 none, 1 a fresh one, 2 the kept one; 3 the kept one for ordering only), clock,
 * deadline (None: no limit). 0, or -1 with an error set. */
static int ts_options(Ts *t, PyObject *const *args, int *max_depth) {
    long depth = PyLong_AsLong(args[0]), quiescence = PyLong_AsLong(args[1]);
    long table = PyLong_AsLong(args[3]);
    int reductions = PyObject_IsTrue(args[2]);
    if (PyErr_Occurred() || reductions < 0) {
        return -1;
    }
    if (depth < 1 || depth > TS_MAX_PLY || quiescence < 0 || quiescence > 32 || table < 0
        || table > 3) {
        PyErr_SetString(PyExc_ValueError, "think: depth 1 to 128, quiescence 0 to 32, table 0 to 3");
        return -1;
    }
    if (!PyCallable_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "think: the clock is a callable");
        return -1;
    }
    t->clock = args[4];
    t->has_deadline = args[5] != Py_None;
    if (t->has_deadline) {
        t->deadline = PyFloat_AsDouble(args[5]);
        if (t->deadline == -1.0 && PyErr_Occurred()) {
            return -1;
        }
    }
    *max_depth = (int)depth;
    t->quiescence = (int)quiescence;
    t->reductions = reductions;
    t->use_table = table == 0 ? 0 : table == 3 ? 1 : 2;
    for (int ply = 0; ply <= TS_MAX_PLY; ply++) {
        t->killer_count[ply] = 0;
    }
    if (table && ts_table_ready(table == 1) < 0) {
        return -1;
    }
    return 0;
}
#endif
