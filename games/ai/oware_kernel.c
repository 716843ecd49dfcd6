/* Oware's search kernel in C: the legal moves, the move ordering, a move's sowing and captures
 * and the board evaluation of games/ai/oware_game.py and oware_eval.py, with the same
 * arguments and the same results. games/ai/oware_kernel.py loads it when it was built (pip
 * builds it where a C compiler is at hand) and falls back to its Python functions when it was
 * not; the tests compare the two on the positions of random games of every variant.
 *
 * Two searches besides: `search`, a plain full-width alpha-beta on material for the puzzle
 * verifier, and `think`, the timed search of the levels `hard` and `max` (timed_search.h:
 * search.py's iterative deepening with its table, reductions and quiescence, over OwareGame's
 * rules with oware_eval's weights and the endgame tables' settled positions as leaves).
 *
 * Pits are a tuple of 12 ints in sowing order (South's A-F, then North's a-f), stores a pair.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "timed_search.h"

#define PITS 12
#define MAX_SEEDS 48
#define FORBIDDEN 0
#define OPPONENT_TAKES 2
#define NO_SEEDS 2
#define CANNOT_FEED 3

static PyObject *small[MAX_SEEDS + 1]; /* the ints 0..48, made once */

static int read_pits(PyObject *tuple, int *pits) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != PITS) {
        PyErr_SetString(PyExc_TypeError, "pits are a tuple of 12 ints");
        return -1;
    }
    for (int i = 0; i < PITS; i++) {
        long seeds = PyLong_AsLong(PyTuple_GET_ITEM(tuple, i));
        if (seeds == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (seeds < 0 || seeds > MAX_SEEDS) {
            PyErr_SetString(PyExc_ValueError, "a pit holds 0 to 48 seeds");
            return -1;
        }
        pits[i] = (int)seeds;
    }
    return 0;
}

static int read_int(PyObject *object, long low, long high, const char *what, long *value) {
    *value = PyLong_AsLong(object);
    if (*value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (*value < low || *value > high) {
        PyErr_Format(PyExc_ValueError, "%s out of range", what);
        return -1;
    }
    return 0;
}

static PyObject *int_list(const int *values, int count) {
    PyObject *list = PyList_New(count);
    if (!list) {
        return NULL;
    }
    for (int k = 0; k < count; k++) {
        PyList_SET_ITEM(list, k, Py_NewRef(small[values[k]]));
    }
    return list;
}

/* Sowing `origin` (the engine's `sow`): the pits after it, and the pits low..high-1 its
 * captures would take (low == high == 0 when none). */
static void sow(const int *pits, int origin, int *out, int *low, int *high) {
    int n = pits[origin], laps = n / 11, rest = n % 11;
    for (int i = 0; i < PITS; i++) {
        out[i] = pits[i] + laps;
    }
    out[origin] = pits[origin] - n;
    for (int step = 1; step <= rest; step++) {
        out[(origin + step) % PITS]++;
    }
    int last = (origin + (rest ? rest : 11)) % PITS;
    int start = origin < 6 ? 6 : 0;
    *low = *high = 0;
    if (last < start || last >= start + 6 || (out[last] != 2 && out[last] != 3)) {
        return;
    }
    int from = last;
    while (from > start && (out[from - 1] == 2 || out[from - 1] == 3)) {
        from--;
    }
    *low = from;
    *high = last + 1;
}

/* Whether capturing low..high-1 empties the row it lies on (the engine's `is_grand_slam`). */
static int grand_slam(const int *pits, int low, int high) {
    if (low == high) {
        return 0;
    }
    int start = low >= 6 ? 6 : 0;
    for (int i = start; i < start + 6; i++) {
        if ((i < low || i >= high) && pits[i]) {
            return 0;
        }
    }
    return 1;
}

/* The seeds the last seed's pit will hold if the move captures there (2 or 3), else 0. */
static int capture_hint(const int *pits, int origin) {
    int n = pits[origin], rest = n % 11;
    int last = (origin + (rest ? rest : 11)) % PITS;
    if ((last < 6) == (origin < 6)) {
        return 0;
    }
    /* What sowing adds to `last`: a seed a lap, and one more when the rest reaches it. */
    int distance = (last - origin + PITS) % PITS;
    int after = pits[last] + n / 11 + (distance <= rest ? 1 : 0);
    return after == 2 || after == 3 ? after : 0;
}

static int read_moves(PyObject *sequence, int *moves) {
    PyObject *fast = PySequence_Fast(sequence, "moves are a sequence of pits");
    if (!fast) {
        return -1;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    if (count > 6) {
        PyErr_SetString(PyExc_ValueError, "a side has at most 6 moves");
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        long pit;
        if (read_int(PySequence_Fast_GET_ITEM(fast, k), 0, PITS - 1, "a pit", &pit) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        moves[k] = (int)pit;
    }
    Py_DECREF(fast);
    return (int)count;
}

/* The arguments (pits, moves) of by_capture and capturing: the number of moves, or -1. */
static int read_pits_and_moves(PyObject *const *args, Py_ssize_t nargs, const char *usage,
                               int *pits, int *moves) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    if (read_pits(args[0], pits) < 0) {
        return -1;
    }
    return read_moves(args[1], moves);
}

/* legal(pits, side, obliged, forbid_slam): the pits the side may play, in pit order. */
static PyObject *legal(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    int pits[PITS];
    long side;
    int obliged, forbid;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "legal(pits, side, obliged, forbid_slam)");
        return NULL;
    }
    if (read_pits(args[0], pits) < 0 || read_int(args[1], 0, 1, "side", &side) < 0
        || (obliged = PyObject_IsTrue(args[2])) < 0 || (forbid = PyObject_IsTrue(args[3])) < 0) {
        return NULL;
    }
    int base = 6 * (int)side, start = 6 - base;
    int moves[6], count = 0;
    for (int i = base; i < base + 6; i++) {
        if (pits[i]) {
            moves[count++] = i;
        }
    }
    int opponent = 0;
    for (int i = start; i < start + 6; i++) {
        opponent += pits[i];
    }
    if (count && !opponent) { /* the opponent must be fed */
        int fed = 0;
        for (int k = 0; k < count; k++) {
            if (pits[moves[k]] >= 6 - moves[k] % 6) {
                moves[fed++] = moves[k];
            }
        }
        count = fed;
    }
    if (count && obliged) { /* must-play-12: a pit of more than 11, if there is one */
        int kept = 0, big[6];
        for (int k = 0; k < count; k++) {
            if (pits[moves[k]] > 11) {
                big[kept++] = moves[k];
            }
        }
        if (kept) {
            memcpy(moves, big, sizeof big);
            count = kept;
        }
    }
    if (count && forbid) { /* no grand slam, unless every move left is one */
        int kept = 0, other[6], after[PITS], low, high;
        for (int k = 0; k < count; k++) {
            sow(pits, moves[k], after, &low, &high);
            if (!grand_slam(after, low, high)) {
                other[kept++] = moves[k];
            }
        }
        if (kept) {
            memcpy(moves, other, sizeof other);
            count = kept;
        }
    }
    return int_list(moves, count);
}

/* by_capture(pits, moves): the moves, those that capture more first, else in their order. */
static PyObject *by_capture(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    int pits[PITS], moves[6], hints[6];
    int count = read_pits_and_moves(args, nargs, "by_capture(pits, moves)", pits, moves);
    if (count < 0) {
        return NULL;
    }
    for (int k = 0; k < count; k++) {
        hints[k] = capture_hint(pits, moves[k]);
    }
    for (int i = 1; i < count; i++) { /* stable: equal hints keep their order */
        for (int j = i; j > 0 && hints[j - 1] < hints[j]; j--) {
            int hint = hints[j], move = moves[j];
            hints[j] = hints[j - 1];
            moves[j] = moves[j - 1];
            hints[j - 1] = hint;
            moves[j - 1] = move;
        }
    }
    return int_list(moves, count);
}

/* capturing(pits, moves): the moves whose last seed captures (by the hint), in their order. */
static PyObject *capturing(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    int pits[PITS], moves[6], kept = 0;
    int count = read_pits_and_moves(args, nargs, "capturing(pits, moves)", pits, moves);
    if (count < 0) {
        return NULL;
    }
    for (int k = 0; k < count; k++) {
        if (capture_hint(pits, moves[k])) {
            moves[kept++] = moves[k];
        }
    }
    return int_list(moves, kept);
}

/* play(pits, stores, side, origin, grandslam, must_play_12, obliged): the pits and stores after
 * the move, whether it captured, the must-play-12 obligations after it, and whether the next
 * player is starved (the engine's `starved`: 0, NO_SEEDS or CANNOT_FEED). */
static PyObject *play(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    int pits[PITS], after[PITS], low, high;
    long side, origin, grandslam, stores[2];
    int must12;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "play(pits, stores, side, origin, grandslam, must_play_12, obliged)");
        return NULL;
    }
    PyObject *store_pair = args[1], *obliged_pair = args[6];
    if (!PyTuple_Check(store_pair) || PyTuple_GET_SIZE(store_pair) != 2
        || !PyTuple_Check(obliged_pair) || PyTuple_GET_SIZE(obliged_pair) != 2) {
        PyErr_SetString(PyExc_TypeError, "stores and obliged are pairs");
        return NULL;
    }
    if (read_pits(args[0], pits) < 0
        || read_int(PyTuple_GET_ITEM(store_pair, 0), 0, MAX_SEEDS, "a store", &stores[0]) < 0
        || read_int(PyTuple_GET_ITEM(store_pair, 1), 0, MAX_SEEDS, "a store", &stores[1]) < 0
        || read_int(args[2], 0, 1, "side", &side) < 0
        || read_int(args[3], 0, PITS - 1, "a pit", &origin) < 0
        || read_int(args[4], 0, 2, "grandslam", &grandslam) < 0
        || (must12 = PyObject_IsTrue(args[5])) < 0) {
        return NULL;
    }
    if (!pits[origin] || origin / 6 != side) {
        PyErr_SetString(PyExc_ValueError, "not a move of this side");
        return NULL;
    }
    sow(pits, (int)origin, after, &low, &high);
    int takes = 0;
    if (grand_slam(after, low, high)) {
        if (grandslam != OPPONENT_TAKES) {
            low = high = 0;
        } else {
            takes = 1;
        }
    }
    if (high) {
        for (int i = low; i < high; i++) {
            stores[side] += after[i];
            after[i] = 0;
        }
        if (takes) {
            for (int i = 6 * (int)side; i < 6 * (int)side + 6; i++) {
                stores[1 - side] += after[i];
                after[i] = 0;
            }
        }
    }
    PyObject *obliged;
    if (must12) {
        int grew[2] = {0, 0};
        for (int i = 0; i < PITS; i++) {
            grew[i / 6] |= pits[i] <= 11 && 11 < after[i];
        }
        int kept = PyObject_IsTrue(PyTuple_GET_ITEM(obliged_pair, side ? 0 : 1));
        if (kept < 0) {
            return NULL;
        }
        /* The mover's obligation is its new one; the other keeps its own or gains one. */
        int south = side ? (kept || grew[0]) : grew[0];
        int north = side ? grew[1] : (kept || grew[1]);
        obliged = PyTuple_Pack(2, south ? Py_True : Py_False, north ? Py_True : Py_False);
    } else {
        obliged = Py_NewRef(obliged_pair);
    }
    if (!obliged) {
        return NULL;
    }
    int next = 1 - (int)side, next_seeds = 0, mover_seeds = 0, can_feed = 0;
    for (int i = 0; i < 6; i++) {
        next_seeds += after[6 * next + i];
        mover_seeds += after[6 * side + i];
        can_feed |= after[6 * next + i] >= 6 - i;
    }
    int starved = !next_seeds ? NO_SEEDS : !mover_seeds && !can_feed ? CANNOT_FEED : 0;
    PyObject *new_pits = PyTuple_New(PITS);
    if (!new_pits) {
        Py_DECREF(obliged);
        return NULL;
    }
    for (int i = 0; i < PITS; i++) {
        PyTuple_SET_ITEM(new_pits, i, Py_NewRef(small[after[i]]));
    }
    return Py_BuildValue("(N(ll)ONi)", new_pits, stores[0], stores[1], high ? Py_True : Py_False,
                         obliged, starved);
}

/* ------------------------------------------------------------- the evaluation */

enum { W_STORE, W_ROW_SEED, W_TARGET, W_PLAYABLE, W_KROO, W_TEMPO, W_COUNT };

/* Seeds in the defender's 1- and 2-seed pits that one of the attacker's pits ends its
 * sowing on (first lap only), each such pit counted once, plus one (oware_eval's). */
static long threatened(const int *pits, int attacker) {
    int base = 6 * attacker, hit[PITS] = {0};
    long total = 0;
    for (int origin = base; origin < base + 6; origin++) {
        int seeds = pits[origin];
        if (seeds > 0 && seeds < 12) {
            int target = (origin + seeds) % PITS;
            if ((target < 6) != (base == 0) && (pits[target] == 1 || pits[target] == 2)
                && !hit[target]) {
                hit[target] = 1;
                total += pits[target] + 1;
            }
        }
    }
    return total;
}

/* oware_eval.evaluate's value for the side to move, by the weights. */
static long long value_of(const long long *w, const int *pits, const long *stores, int side) {
    int other = 1 - side;
    long long seeds[2] = {0, 0}, playable[2] = {0, 0};
    int kroo[2] = {0, 0};
    for (int i = 0; i < PITS; i++) {
        seeds[i / 6] += pits[i];
        playable[i / 6] += pits[i] != 0;
        kroo[i / 6] |= pits[i] >= 12;
    }
    long long score = w[W_STORE] * (stores[side] - stores[other]);
    score += w[W_ROW_SEED] * (seeds[side] - seeds[other]);
    score += w[W_PLAYABLE] * (playable[side] - playable[other]);
    score += w[W_TARGET] * (threatened(pits, side) - threatened(pits, other));
    score += kroo[side] ? w[W_KROO] : 0;
    score -= kroo[other] ? w[W_KROO] : 0;
    return score + w[W_TEMPO];
}

/* evaluate(weights, pits, stores, side): oware_eval.evaluate's value for the side to move. */
static PyObject *evaluate(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyBytes_Check(args[0])
        || PyBytes_GET_SIZE(args[0]) != (Py_ssize_t)(W_COUNT * sizeof(long long))) {
        PyErr_SetString(PyExc_TypeError, "evaluate(packed weights, pits, stores, side)");
        return NULL;
    }
    long long w[W_COUNT];
    memcpy(w, PyBytes_AS_STRING(args[0]), sizeof w);
    int pits[PITS];
    long side, stores[2];
    PyObject *store_pair = args[2];
    if (!PyTuple_Check(store_pair) || PyTuple_GET_SIZE(store_pair) != 2) {
        PyErr_SetString(PyExc_TypeError, "stores are a pair");
        return NULL;
    }
    if (read_pits(args[1], pits) < 0
        || read_int(PyTuple_GET_ITEM(store_pair, 0), 0, MAX_SEEDS, "a store", &stores[0]) < 0
        || read_int(PyTuple_GET_ITEM(store_pair, 1), 0, MAX_SEEDS, "a store", &stores[1]) < 0
        || read_int(args[3], 0, 1, "side", &side) < 0) {
        return NULL;
    }
    return PyLong_FromLongLong(value_of(w, pits, stores, (int)side));
}

/* -------------------------------------------------------------- the proof search */

/* search(pits, stores, side, grandslam, must_play_12, obliged, history, depth, alpha, beta): a plain
 * full-width alpha-beta (negamax, fail-hard) of `depth` plies by the rules of games/oware.py: every
 * legal move searched, no reductions, no pruning but alpha-beta's. A finished game scores exactly
 * (SEARCH_WIN for the side to move's win, -SEARCH_WIN for its loss, 0 for a draw: 24 each), the
 * store difference (a seed 1) at the horizon. `history` is the engine's `history`: the pits of every
 * position since the stores last changed, the current one last (a repetition ends the game and each
 * side takes its own row). So a value >= SEARCH_WIN is a forced win inside the horizon, <= -SEARCH_WIN
 * a forced loss. A table of values by position, depth and the history since the last capture (so a
 * hit holds only under the same repetition rules), and the best move by position to order moves,
 * make it faster and change no value. */
#define SEARCH_WIN 100000
#define MAX_LINE 512
#define TABLE_BITS 20

typedef struct {
    unsigned long long key, history;
    signed char depth;
    int low, high;
    signed char best;
} Entry;

typedef struct {
    int grandslam, must12;
    int line[MAX_LINE][PITS]; /* the pits since the stores last changed, the current last */
    int line_side[MAX_LINE];
    int length, base; /* the line since the stores last changed is line[base:length] */
    unsigned long long history; /* a sum of the hashes of that line but its last */
    Entry *table;
    long long nodes;
} Search;

static unsigned long long mix(unsigned long long x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static unsigned long long pits_hash(const int *pits, int side) {
    unsigned long long h = (unsigned long long)side;
    for (int i = 0; i < PITS; i++) {
        h = mix(h * 64 + (unsigned long long)pits[i]);
    }
    return h;
}

static unsigned long long position_key(const int *pits, const int *stores, int side, const int *obliged) {
    unsigned long long h = pits_hash(pits, side);
    return mix(h ^ ((unsigned long long)stores[0] << 8 | (unsigned long long)stores[1] << 16
                    | (unsigned long long)obliged[0] << 24 | (unsigned long long)obliged[1] << 25));
}

/* The legal moves (the kernel's `legal`), the likely captures first. */
static int ordered_moves(int grandslam, const int *pits, int side, int obliged, int *moves) {
    int base = 6 * side, start = 6 - base, count = 0;
    for (int i = base; i < base + 6; i++) {
        if (pits[i]) {
            moves[count++] = i;
        }
    }
    int opponent = 0;
    for (int i = start; i < start + 6; i++) {
        opponent += pits[i];
    }
    if (count && !opponent) {
        int fed = 0;
        for (int k = 0; k < count; k++) {
            if (pits[moves[k]] >= 6 - moves[k] % 6) {
                moves[fed++] = moves[k];
            }
        }
        count = fed;
    }
    if (count && obliged) {
        int kept = 0, big[6];
        for (int k = 0; k < count; k++) {
            if (pits[moves[k]] > 11) {
                big[kept++] = moves[k];
            }
        }
        if (kept) {
            memcpy(moves, big, sizeof big);
            count = kept;
        }
    }
    if (count && grandslam == FORBIDDEN) {
        int kept = 0, other[6], after[PITS], low, high;
        for (int k = 0; k < count; k++) {
            /* a move the hint says captures nothing is no grand slam: sown only when it does */
            int slam = 0;
            if (capture_hint(pits, moves[k])) {
                sow(pits, moves[k], after, &low, &high);
                slam = grand_slam(after, low, high);
            }
            if (!slam) {
                other[kept++] = moves[k];
            }
        }
        if (kept) {
            memcpy(moves, other, sizeof other);
            count = kept;
        }
    }
    int hints[6];
    for (int k = 0; k < count; k++) {
        hints[k] = capture_hint(pits, moves[k]);
    }
    for (int i = 1; i < count; i++) {
        for (int j = i; j > 0 && hints[j - 1] < hints[j]; j--) {
            int hint = hints[j], move = moves[j];
            hints[j] = hints[j - 1];
            moves[j] = moves[j - 1];
            hints[j - 1] = hint;
            moves[j - 1] = move;
        }
    }
    return count;
}

static int search_moves(const Search *s, const int *pits, int side, int obliged, int *moves) {
    return ordered_moves(s->grandslam, pits, side, obliged, moves);
}

/* The value of a finished game for `side`, from both players' totals. */
static int final_score(const int *totals, int side) {
    if (totals[side] > 24) {
        return SEARCH_WIN;
    }
    if (totals[1 - side] > 24) {
        return -SEARCH_WIN;
    }
    return 0;
}

static int negamax(Search *s, const int *pits, const int *stores, int side, const int *obliged,
                   int depth, int alpha, int beta) {
    s->nodes++;
    if (depth <= 0) {
        return stores[side] - stores[1 - side];
    }
    unsigned long long key = position_key(pits, stores, side, obliged);
    Entry *entry = &s->table[key & ((1ULL << TABLE_BITS) - 1)];
    int hint = -1;
    if (entry->key == key) {
        hint = entry->best;
        if (entry->history == s->history && entry->depth == depth) {
            if (entry->low >= beta) {
                return entry->low;
            }
            if (entry->high <= alpha) {
                return entry->high;
            }
            if (entry->low == entry->high) {
                return entry->low;
            }
        }
    }
    int moves[6];
    int count = search_moves(s, pits, side, obliged[side], moves);
    if (!count) { /* not reached from a position the engine leaves unfinished */
        int totals[2] = {stores[0], stores[1]};
        for (int i = 0; i < PITS; i++) {
            totals[i / 6] += pits[i];
        }
        return final_score(totals, side);
    }
    for (int k = 1; k < count; k++) {
        if (moves[k] == hint) {
            memmove(moves + 1, moves, (size_t)k * sizeof(int));
            moves[0] = hint;
            break;
        }
    }
    int start_alpha = alpha, best = -2 * SEARCH_WIN, best_move = moves[0];
    for (int k = 0; k < count && alpha < beta; k++) {
        int origin = moves[k], after[PITS], low, high, takes = 0;
        int new_stores[2] = {stores[0], stores[1]};
        sow(pits, origin, after, &low, &high);
        if (grand_slam(after, low, high)) {
            if (s->grandslam != OPPONENT_TAKES) {
                low = high = 0;
            } else {
                takes = 1;
            }
        }
        for (int i = low; i < high; i++) {
            new_stores[side] += after[i];
            after[i] = 0;
        }
        if (takes) {
            for (int i = 6 * side; i < 6 * side + 6; i++) {
                new_stores[1 - side] += after[i];
                after[i] = 0;
            }
        }
        int new_obliged[2] = {obliged[0], obliged[1]};
        if (s->must12) {
            int grew[2] = {0, 0};
            for (int i = 0; i < PITS; i++) {
                grew[i / 6] |= pits[i] <= 11 && 11 < after[i];
            }
            new_obliged[0] = side ? (obliged[0] || grew[0]) : grew[0];
            new_obliged[1] = side ? grew[1] : (obliged[1] || grew[1]);
        }
        int next = 1 - side, score;
        int ending = 0;
        if (new_stores[0] < 25 && new_stores[1] < 25) {
            if (!high) { /* the same side to move lies two positions apart */
                for (int back = s->length - 2; back >= s->base && !ending; back -= 2) {
                    ending = !memcmp(s->line[back], after, sizeof after);
                }
            }
            if (!ending) {
                int next_seeds = 0, mover_seeds = 0, can_feed = 0;
                for (int i = 0; i < 6; i++) {
                    next_seeds += after[6 * next + i];
                    mover_seeds += after[6 * side + i];
                    can_feed |= after[6 * next + i] >= 6 - i;
                }
                ending = !next_seeds || (!mover_seeds && !can_feed);
            }
        }
        if (new_stores[0] > 24 || new_stores[1] > 24 || ending) {
            int totals[2] = {new_stores[0], new_stores[1]};
            if (ending) {
                for (int i = 0; i < PITS; i++) {
                    totals[i / 6] += after[i];
                }
            }
            score = final_score(totals, side);
        } else if (s->length >= MAX_LINE) {
            score = new_stores[side] - new_stores[next]; /* out of room: the horizon */
        } else {
            int saved_base = s->base;
            unsigned long long saved_history = s->history;
            if (high) { /* the stores changed: no earlier position can come back */
                s->base = s->length;
                s->history = 0;
            } else {
                s->history += pits_hash(s->line[s->length - 1], s->line_side[s->length - 1]);
            }
            memcpy(s->line[s->length], after, sizeof after);
            s->line_side[s->length++] = next;
            score = -negamax(s, after, new_stores, next, new_obliged, depth - 1, -beta, -alpha);
            s->length--;
            s->base = saved_base;
            s->history = saved_history;
        }
        if (score > best) {
            best = score;
            best_move = origin;
            if (score > alpha) {
                alpha = score;
            }
        }
    }
    int low = -2 * SEARCH_WIN, high_bound = 2 * SEARCH_WIN;
    if (best <= start_alpha) {
        high_bound = best;
    } else if (best >= beta) {
        low = best;
    } else {
        low = high_bound = best;
    }
    entry->key = key;
    entry->history = s->history;
    entry->depth = (signed char)depth;
    entry->low = low;
    entry->high = high_bound;
    entry->best = (signed char)best_move;
    return best;
}

static PyObject *search(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "search(pits, stores, side, grandslam, must_play_12, "
                                         "obliged, history, depth, alpha, beta)");
        return NULL;
    }
    int pits[PITS], stores[2], obliged[2];
    long side, grandslam, depth, alpha, beta, value;
    PyObject *store_pair = args[1], *obliged_pair = args[5];
    if (!PyTuple_Check(store_pair) || PyTuple_GET_SIZE(store_pair) != 2
        || !PyTuple_Check(obliged_pair) || PyTuple_GET_SIZE(obliged_pair) != 2) {
        PyErr_SetString(PyExc_TypeError, "stores and obliged are pairs");
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        if (read_int(PyTuple_GET_ITEM(store_pair, i), 0, MAX_SEEDS, "a store", &value) < 0) {
            return NULL;
        }
        stores[i] = (int)value;
        if ((obliged[i] = PyObject_IsTrue(PyTuple_GET_ITEM(obliged_pair, i))) < 0) {
            return NULL;
        }
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s) {
        return PyErr_NoMemory();
    }
    if (read_pits(args[0], pits) < 0 || read_int(args[2], 0, 1, "side", &side) < 0
        || read_int(args[3], 0, 2, "grandslam", &grandslam) < 0
        || (s->must12 = PyObject_IsTrue(args[4])) < 0
        || read_int(args[7], 0, 100, "depth", &depth) < 0
        || read_int(args[8], -4 * SEARCH_WIN, 4 * SEARCH_WIN, "alpha", &alpha) < 0
        || read_int(args[9], -4 * SEARCH_WIN, 4 * SEARCH_WIN, "beta", &beta) < 0) {
        free(s);
        return NULL;
    }
    s->grandslam = (int)grandslam;
    PyObject *line = PySequence_Fast(args[6], "history is a sequence of pits");
    if (!line) {
        free(s);
        return NULL;
    }
    Py_ssize_t length = PySequence_Fast_GET_SIZE(line);
    if (length < 1 || length > MAX_LINE / 2) {
        Py_DECREF(line);
        free(s);
        PyErr_SetString(PyExc_ValueError, "history holds 1 to 256 positions, the current one last");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < length; k++) {
        /* positions lie one ply apart: the current side moves at even distances back */
        int at_side = (int)((side + (length - 1 - k)) % 2);
        if (read_pits(PySequence_Fast_GET_ITEM(line, k), s->line[k]) < 0) {
            Py_DECREF(line);
            free(s);
            return NULL;
        }
        s->line_side[k] = at_side;
        if (k < length - 1) {
            s->history += pits_hash(s->line[k], at_side);
        }
    }
    Py_DECREF(line);
    memcpy(s->line[length - 1], pits, sizeof pits);
    s->length = (int)length;
    s->table = calloc((size_t)1 << TABLE_BITS, sizeof(Entry));
    if (!s->table) {
        free(s);
        return PyErr_NoMemory();
    }
    int result = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int d = 1; d <= depth; d++) { /* deepening only orders the moves of the last pass */
        result = negamax(s, pits, stores, (int)side, obliged, d, (int)alpha, (int)beta);
    }
    Py_END_ALLOW_THREADS
    free(s->table);
    free(s);
    return PyLong_FromLong(result);
}


/* --------------------------------------------------------------- the timed search */

/* think(pits, stores, side, obliged, history, grandslam, must_play_12, weights, tables, moves,
 *       max_depth, quiescence, reductions, table, clock, deadline):
 * the timed search of timed_search.h over OwareGame's rules (games/ai/oware_game.py, line by
 * line: the repetition rule on the pits since the stores last changed, starvation, 25 seeds), its
 * leaves valued by oware_eval's weights, the endgame tables' settled positions (oware_game's
 * `table_score`) as finished games below the root when `tables` is (bounds, numbers, differences):
 * the table file's bounds bytes and, for a grand-slam rule with differences, their sorted
 * position numbers (uint32) and bounds bytes; None without tables. `moves` are the root's legal
 * pits in the order that decides among equal ones. Returns (index into moves, score, depth,
 * nodes). */
#define G_MAX_MOVES 6
#define TABLE_SEEDS 12
#define TABLE_PLIES 1000

typedef int Move;

typedef struct {
    int pits[PITS];
    long stores[2];
    int side, obliged[2], ending;
    int base, length; /* this position's pits since the stores changed: line[base:length] */
} OPos;

typedef struct Game {
    int grandslam, must12;
    long long w[W_COUNT];
    int tables;
    const unsigned char *bounds, *diff_bounds;
    const uint32_t *numbers;
    Py_ssize_t diff_count;
    OPos stack[TS_STACK + 1];
    int top;
    int (*line)[PITS];
} Game;

static long long ways[PITS + 1][TABLE_SEEDS + 1]; /* ways[k][s]: s seeds in k pits */
static long long layer_base[TABLE_SEEDS + 2];

static void make_numbering(void) {
    for (int k = 0; k <= PITS; k++) {
        for (int s = 0; s <= TABLE_SEEDS; s++) {
            ways[k][s] = k == 0 ? s == 0 : s == 0 ? 1 : ways[k - 1][s] + ways[k][s - 1];
        }
    }
    layer_base[0] = 0;
    for (int s = 0; s <= TABLE_SEEDS; s++) {
        layer_base[s + 1] = layer_base[s] + ways[PITS][s];
    }
}

/* oware_tables.index of the pits as the mover sees them. */
static long long table_index(const int *view, int left) {
    long long number = layer_base[left];
    for (int pit = 0; pit < PITS - 1; pit++) {
        for (int v = 0; v < view[pit]; v++) {
            number += ways[PITS - 1 - pit][left - v];
        }
        left -= view[pit];
    }
    return number;
}

/* oware_game.table_score: WIN - TABLE_PLIES, its negation or 0 where the tables' bounds settle
 * the result whatever the history, else TS_NONE. */
static int table_score(const Game *g, const OPos *p) {
    int seeds = 0;
    for (int i = 0; i < PITS; i++) {
        seeds += p->pits[i];
    }
    if (seeds > TABLE_SEEDS || p->ending) {
        return TS_NONE;
    }
    long mine = p->stores[p->side], theirs = p->stores[1 - p->side];
    if (mine > 24 || theirs > 24) {
        return TS_NONE;
    }
    int view[PITS];
    for (int i = 0; i < PITS; i++) {
        view[i] = p->pits[(i + 6 * p->side) % PITS];
    }
    long long number = table_index(view, seeds);
    int byte = g->bounds[number];
    Py_ssize_t low = 0, high = g->diff_count;
    while (low < high) {
        Py_ssize_t middle = (low + high) / 2;
        if (g->numbers[middle] < (uint32_t)number) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    if (low < g->diff_count && g->numbers[low] == (uint32_t)number) {
        byte = g->diff_bounds[low];
    }
    int least = byte & 15, most = byte >> 4;
    long worst_mine = mine + least, worst_theirs = theirs + seeds - least;
    long best_mine = mine + most, best_theirs = theirs + seeds - most;
    int worst = worst_mine > 24 ? 1 : worst_theirs > 24 ? -1 : 0;
    int best = best_mine > 24 ? 1 : best_theirs > 24 ? -1 : 0;
    return worst == best ? (TS_WIN - TABLE_PLIES) * worst : TS_NONE;
}

static int g_expand(Game *g, int ply, Move *moves, int *count) {
    const OPos *p = &g->stack[g->top];
    *count = 0;
    if (g->tables && ply > 0) {
        int score = table_score(g, p);
        if (score != TS_NONE) {
            return score;
        }
    }
    if (!p->ending && p->stores[0] <= 24 && p->stores[1] <= 24) {
        *count = ordered_moves(g->grandslam, p->pits, p->side, g->must12 && p->obliged[p->side],
                               moves);
    }
    if (*count) {
        return TS_NONE;
    }
    long south = p->stores[0], north = p->stores[1];
    int winner = -1;
    if (!p->ending && south > 24) {
        winner = 0;
    } else if (!p->ending && north > 24) {
        winner = 1;
    } else {
        for (int i = 0; i < 6; i++) {
            south += p->pits[i];
            north += p->pits[6 + i];
        }
        winner = south > 24 ? 0 : north > 24 ? 1 : -1;
    }
    return winner < 0 ? 0 : winner == p->side ? TS_WIN : -TS_WIN;
}

/* OwareRules.play. */
static void g_play(Game *g, const Move *move) {
    const OPos *p = &g->stack[g->top];
    OPos *c = &g->stack[g->top + 1];
    int origin = *move, side = p->side, low, high, takes = 0;
    sow(p->pits, origin, c->pits, &low, &high);
    c->stores[0] = p->stores[0];
    c->stores[1] = p->stores[1];
    if (grand_slam(c->pits, low, high)) {
        if (g->grandslam != OPPONENT_TAKES) {
            low = high = 0;
        } else {
            takes = 1;
        }
    }
    for (int i = low; i < high; i++) {
        c->stores[side] += c->pits[i];
        c->pits[i] = 0;
    }
    if (takes) {
        for (int i = 6 * side; i < 6 * side + 6; i++) {
            c->stores[1 - side] += c->pits[i];
            c->pits[i] = 0;
        }
    }
    c->obliged[0] = p->obliged[0];
    c->obliged[1] = p->obliged[1];
    if (g->must12) {
        int grew[2] = {0, 0};
        for (int i = 0; i < PITS; i++) {
            grew[i / 6] |= p->pits[i] <= 11 && 11 < c->pits[i];
        }
        c->obliged[0] = side ? (p->obliged[0] || grew[0]) : grew[0];
        c->obliged[1] = side ? grew[1] : (p->obliged[1] || grew[1]);
    }
    int next = 1 - side, repeated = 0;
    if (high) {
        c->base = p->length;
    } else {
        c->base = p->base;
        for (int back = p->length - 2; back >= p->base && !repeated; back -= 2) {
            repeated = !memcmp(g->line[back], c->pits, sizeof c->pits);
        }
    }
    memcpy(g->line[p->length], c->pits, sizeof c->pits);
    c->length = p->length + 1;
    int ending = 0;
    if (c->stores[0] < 25 && c->stores[1] < 25) {
        if (repeated) {
            ending = 1;
        } else {
            int next_seeds = 0, mover_seeds = 0, can_feed = 0;
            for (int i = 0; i < 6; i++) {
                next_seeds += c->pits[6 * next + i];
                mover_seeds += c->pits[6 * side + i];
                can_feed |= c->pits[6 * next + i] >= 6 - i;
            }
            ending = !next_seeds ? NO_SEEDS : !mover_seeds && !can_feed ? CANNOT_FEED : 0;
        }
    }
    if (ending) {
        for (int i = 0; i < PITS; i++) {
            c->stores[i / 6] += c->pits[i];
            c->pits[i] = 0;
        }
    }
    if (ending || c->stores[0] > 24 || c->stores[1] > 24) {
        c->obliged[0] = c->obliged[1] = 0;
    }
    c->ending = ending;
    c->side = next;
    g->top++;
}

static void g_undo(Game *g) { g->top--; }

static int g_evaluate(Game *g) {
    const OPos *p = &g->stack[g->top];
    return (int)value_of(g->w, p->pits, p->stores, p->side);
}

static uint64_t g_key(Game *g) {
    const OPos *p = &g->stack[g->top];
    uint64_t south = 0, north = 0; /* 6 bits a pit */
    for (int i = 0; i < 6; i++) {
        south = south << 6 | (uint64_t)p->pits[i];
        north = north << 6 | (uint64_t)p->pits[6 + i];
    }
    uint64_t rest = (uint64_t)p->stores[0] | (uint64_t)p->stores[1] << 6 | (uint64_t)p->side << 12
                    | (uint64_t)p->obliged[0] << 13 | (uint64_t)p->obliged[1] << 14
                    | (uint64_t)p->ending << 15;
    return mix(south ^ mix(north << 16 ^ rest));
}

/* OwareGame.tactics: never forced (a stand-pat), the captures by the hint worth searching. */
static int g_tactics(Game *g, const Move *moves, int count, unsigned char *loud) {
    const OPos *p = &g->stack[g->top];
    for (int k = 0; k < count; k++) {
        loud[k] = capture_hint(p->pits, moves[k]) != 0;
    }
    return 0;
}

static int g_move_id(const Move *move) { return *move; }

#define G_FUTILITY 0
#include "timed_search.h"

static PyObject *think(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 16) {
        PyErr_SetString(PyExc_TypeError,
                        "think(pits, stores, side, obliged, history, grandslam, must_play_12, "
                        "weights, tables, moves, max_depth, quiescence, reductions, table, clock, "
                        "deadline)");
        return NULL;
    }
    Ts *t = PyMem_RawCalloc(1, sizeof(Ts));
    Game *g = PyMem_RawCalloc(1, sizeof(Game));
    Py_buffer views[3];
    int held = 0, max_depth = 0;
    PyObject *line = NULL, *result = NULL;
    long value;
    if (!t || !g) {
        PyErr_NoMemory();
        goto done;
    }
    t->g = g;
    OPos *root = &g->stack[0];
    PyObject *store_pair = args[1], *obliged_pair = args[3];
    if (!PyTuple_Check(store_pair) || PyTuple_GET_SIZE(store_pair) != 2
        || !PyTuple_Check(obliged_pair) || PyTuple_GET_SIZE(obliged_pair) != 2) {
        PyErr_SetString(PyExc_TypeError, "stores and obliged are pairs");
        goto done;
    }
    for (int i = 0; i < 2; i++) {
        if (read_int(PyTuple_GET_ITEM(store_pair, i), 0, MAX_SEEDS, "a store", &value) < 0) {
            goto done;
        }
        root->stores[i] = value;
        if ((root->obliged[i] = PyObject_IsTrue(PyTuple_GET_ITEM(obliged_pair, i))) < 0) {
            goto done;
        }
    }
    long side, grandslam;
    if (read_pits(args[0], root->pits) < 0 || read_int(args[2], 0, 1, "side", &side) < 0
        || read_int(args[5], 0, 2, "grandslam", &grandslam) < 0
        || (g->must12 = PyObject_IsTrue(args[6])) < 0) {
        goto done;
    }
    root->side = (int)side;
    g->grandslam = (int)grandslam;
    if (!PyBytes_Check(args[7]) || PyBytes_GET_SIZE(args[7]) != (Py_ssize_t)sizeof g->w) {
        PyErr_SetString(PyExc_TypeError, "think: the weights are oware_eval's, packed");
        goto done;
    }
    memcpy(g->w, PyBytes_AS_STRING(args[7]), sizeof g->w);
    if (args[8] != Py_None) {
        if (!PyTuple_Check(args[8]) || PyTuple_GET_SIZE(args[8]) != 3) {
            PyErr_SetString(PyExc_TypeError, "tables are (bounds, numbers, differences) or None");
            goto done;
        }
        for (int k = 0; k < 3; k++) {
            PyObject *item = PyTuple_GET_ITEM(args[8], k);
            if (item == Py_None) {
                views[k].buf = NULL;
                views[k].len = 0;
                continue;
            }
            if (PyObject_GetBuffer(item, &views[k], PyBUF_SIMPLE) < 0) {
                goto done;
            }
            held |= 1 << k;
        }
        g->tables = 1;
        g->bounds = views[0].buf;
        g->numbers = views[1].buf;
        g->diff_bounds = views[2].buf;
        g->diff_count = views[1].len / (Py_ssize_t)sizeof(uint32_t);
        if (views[0].len < layer_base[TABLE_SEEDS + 1] || views[2].len < g->diff_count) {
            PyErr_SetString(PyExc_ValueError, "think: the tables are too short");
            goto done;
        }
    }
    line = PySequence_Fast(args[4], "history is a sequence of pits");
    if (!line) {
        goto done;
    }
    Py_ssize_t length = PySequence_Fast_GET_SIZE(line);
    if (length < 1 || length > 100000) {
        PyErr_SetString(PyExc_ValueError, "history holds the pits since the stores changed, "
                                          "the current ones last");
        goto done;
    }
    g->line = PyMem_RawMalloc((size_t)(length + TS_STACK + 2) * sizeof *g->line);
    if (!g->line) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < length; k++) {
        if (read_pits(PySequence_Fast_GET_ITEM(line, k), g->line[k]) < 0) {
            goto done;
        }
    }
    root->base = 0;
    root->length = (int)length;
    if (ts_options(t, args + 10, &max_depth) < 0) {
        goto done;
    }
    uint64_t salt = mix((uint64_t)g->grandslam << 1 | (uint64_t)g->must12 << 3
                        | (uint64_t)g->tables << 4 | (uint64_t)t->quiescence << 8);
    for (int k = 0; k < W_COUNT; k++) {
        salt = mix(salt ^ (uint64_t)g->w[k]);
    }
    t->salt = salt;
    int legal[G_MAX_MOVES], legal_count;
    if (g_expand(g, 0, legal, &legal_count) != TS_NONE) {
        PyErr_SetString(PyExc_ValueError, "think: the game is over");
        goto done;
    }
    int given[G_MAX_MOVES];
    int count = read_moves(args[9], given);
    if (count < 0) {
        goto done;
    }
    int order[G_MAX_MOVES], seen = 0;
    for (int k = 0; k < count; k++) {
        int found = 0;
        for (int j = 0; j < legal_count; j++) {
            found |= legal[j] == given[k];
        }
        seen |= found ? 1 << given[k] : 0;
        if (!found) {
            PyErr_SetString(PyExc_ValueError, "think: a root move that is not legal");
            goto done;
        }
        t->moves[0][k] = given[k];
        order[k] = k;
    }
    if (count != legal_count || __builtin_popcount((unsigned)seen) != count) {
        PyErr_SetString(PyExc_ValueError, "think: the root moves are the legal ones, each once");
        goto done;
    }
    int score, depth;
    int best = ts_iterate(t, t->moves[0], order, count, max_depth, &score, &depth);
    if (best >= 0) {
        result = Py_BuildValue("(iiiL)", best, score, depth, t->nodes);
    }
done:
    for (int k = 0; k < 3; k++) {
        if (held & 1 << k) {
            PyBuffer_Release(&views[k]);
        }
    }
    Py_XDECREF(line);
    if (g) {
        PyMem_RawFree(g->line);
    }
    PyMem_RawFree(g);
    PyMem_RawFree(t);
    return result;
}

static PyMethodDef methods[] = {
    {"legal", (PyCFunction)(void (*)(void))legal, METH_FASTCALL,
     "legal(pits, side, obliged, forbid_slam): the pits the side may play."},
    {"by_capture", (PyCFunction)(void (*)(void))by_capture, METH_FASTCALL,
     "by_capture(pits, moves): the moves, the likely captures first."},
    {"capturing", (PyCFunction)(void (*)(void))capturing, METH_FASTCALL,
     "capturing(pits, moves): the moves whose last seed captures."},
    {"play", (PyCFunction)(void (*)(void))play, METH_FASTCALL,
     "play(pits, stores, side, origin, grandslam, must_play_12, obliged): after the move."},
    {"evaluate", (PyCFunction)(void (*)(void))evaluate, METH_FASTCALL,
     "evaluate(weights, pits, stores, side): the position's value for the side to move."},
    {"search", (PyCFunction)(void (*)(void))search, METH_FASTCALL,
     "search(pits, stores, side, grandslam, must_play_12, obliged, history, depth, alpha, beta):"
     " a plain full-width alpha-beta's value for the side to move."},
    {"think", (PyCFunction)(void (*)(void))think, METH_FASTCALL,
     "think(pits, stores, side, obliged, history, grandslam, must_play_12, weights, tables, moves,"
     " max_depth, quiescence, reductions, table, clock, deadline): the timed search's"
     " (move index, score, depth, nodes)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_oware_kernel", "Oware's search kernel in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__oware_kernel(void) {
    make_numbering();
    for (int n = 0; n <= MAX_SEEDS; n++) {
        small[n] = PyLong_FromLong(n);
        if (!small[n]) {
            return NULL;
        }
    }
    return PyModule_Create(&module);
}
