/* Oware's search kernel in C: the legal moves, the move ordering, a move's sowing and captures
 * and the board evaluation of games/ai/oware_game.py and oware_eval.py, with the same
 * arguments and the same results. games/ai/oware_kernel.py loads it when it was built (pip
 * builds it where a C compiler is at hand) and falls back to its Python functions when it was
 * not; the tests compare the two on the positions of random games of every variant.
 *
 * Pits are a tuple of 12 ints in sowing order (South's A-F, then North's a-f), stores a pair.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

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
    int other = 1 - (int)side;
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
    score += w[W_TARGET] * (threatened(pits, (int)side) - threatened(pits, other));
    score += kroo[side] ? w[W_KROO] : 0;
    score -= kroo[other] ? w[W_KROO] : 0;
    return PyLong_FromLongLong(score + w[W_TEMPO]);
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
static int search_moves(const Search *s, const int *pits, int side, int obliged, int *moves) {
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
    if (count && s->grandslam == FORBIDDEN) {
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
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_oware_kernel", "Oware's search kernel in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__oware_kernel(void) {
    for (int n = 0; n <= MAX_SEEDS; n++) {
        small[n] = PyLong_FromLong(n);
        if (!small[n]) {
            return NULL;
        }
    }
    return PyModule_Create(&module);
}
