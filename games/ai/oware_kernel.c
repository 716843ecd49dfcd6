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
