/* Lasca's search kernel in C: the engine's `generate` and `apply` (games/lasca.py) and the
 * board evaluation of games/ai/lasca_eval.py, with the same arguments and the same results,
 * in the same order. games/ai/lasca_kernel.py loads it when it was built (pip builds it where
 * a C compiler is at hand) and falls back to the Python functions when it was not; the tests
 * compare the two on the positions of random games.
 *
 * Two searches besides: `search`, a plain full-width alpha-beta on material for the puzzle
 * verifier, and `think`, the timed search of the levels `hard` and `max` (timed_search.h:
 * search.py's iterative deepening with its table, reductions and quiescence, over LascaGame's
 * rules with lasca_eval's weights, and reverse futility pruning near the horizon).
 *
 * A board is a tuple of 25 strings, one per playing square in the engine's order (a1, a3, ...,
 * g7), each a column from the bottom up: "w"/"b" soldiers, "W"/"B" officers, "" an empty square.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "timed_search.h"

#define SQUARES 25
#define KINDS 3 /* a White soldier (moves up), a Black soldier, an officer */
#define OFFICER 2
#define MAX_COLUMN 64
#define MAX_PATH 24

static int rank_of[SQUARES];
static int edge_of[SQUARES];
static char name_of[SQUARES][3];
static int step_count[KINDS][SQUARES];
static int step_to[KINDS][SQUARES][4];
static PyObject *step_text[KINDS][SQUARES][4];
static PyObject *step_data[KINDS][SQUARES][4];
static int jump_count[KINDS][SQUARES];
static int jump_over[KINDS][SQUARES][4];
static int jump_land[KINDS][SQUARES][4];
static PyObject *empty_column;

static const int directions[KINDS][4][2] = {
    {{-1, 1}, {1, 1}, {0, 0}, {0, 0}},
    {{-1, -1}, {1, -1}, {0, 0}, {0, 0}},
    {{-1, 1}, {1, 1}, {-1, -1}, {1, -1}},
};
static const int direction_count[KINDS] = {2, 2, 4};

static int square_at(int file, int rank) {
    if (file < 0 || file > 6 || rank < 1 || rank > 7 || (file + rank) % 2 != 1) {
        return -1;
    }
    int index = 0;
    for (int f = 0; f < file; f++) {
        index += f % 2 == 0 ? 4 : 3;
    }
    return index + (file % 2 == 0 ? (rank - 1) / 2 : (rank - 2) / 2);
}

static void sort_pairs(int count, int *keys, int *other) {
    for (int i = 1; i < count; i++) {
        for (int j = i; j > 0 && keys[j - 1] > keys[j]; j--) {
            int k = keys[j], o = other ? other[j] : 0;
            keys[j] = keys[j - 1];
            keys[j - 1] = k;
            if (other) {
                other[j] = other[j - 1];
                other[j - 1] = o;
            }
        }
    }
}

static int build_tables(void) {
    empty_column = PyUnicode_FromString("");
    if (!empty_column) {
        return -1;
    }
    for (int file = 0; file < 7; file++) {
        for (int rank = 1; rank <= 7; rank++) {
            int i = square_at(file, rank);
            if (i < 0) {
                continue;
            }
            rank_of[i] = rank;
            edge_of[i] = file == 0 || file == 6 || rank == 1 || rank == 7;
            name_of[i][0] = (char)('a' + file);
            name_of[i][1] = (char)('0' + rank);
            name_of[i][2] = 0;
        }
    }
    for (int kind = 0; kind < KINDS; kind++) {
        for (int file = 0; file < 7; file++) {
            for (int rank = 1; rank <= 7; rank++) {
                int i = square_at(file, rank);
                if (i < 0) {
                    continue;
                }
                int steps = 0, jumps = 0;
                for (int d = 0; d < direction_count[kind]; d++) {
                    int df = directions[kind][d][0], dr = directions[kind][d][1];
                    int over = square_at(file + df, rank + dr);
                    int land = square_at(file + 2 * df, rank + 2 * dr);
                    if (over >= 0) {
                        step_to[kind][i][steps++] = over;
                    }
                    if (over >= 0 && land >= 0) {
                        jump_over[kind][i][jumps] = over;
                        jump_land[kind][i][jumps++] = land;
                    }
                }
                sort_pairs(steps, step_to[kind][i], NULL);
                sort_pairs(jumps, jump_land[kind][i], jump_over[kind][i]);
                step_count[kind][i] = steps;
                jump_count[kind][i] = jumps;
                for (int s = 0; s < steps; s++) {
                    int t = step_to[kind][i][s];
                    step_text[kind][i][s] = PyUnicode_FromFormat("%s-%s", name_of[i], name_of[t]);
                    step_data[kind][i][s] = Py_BuildValue("(i(i)())", i, t);
                    if (!step_text[kind][i][s] || !step_data[kind][i][s]) {
                        return -1;
                    }
                }
            }
        }
    }
    return 0;
}

/* The top piece of each column (0 for an empty square); -1 when the board is no board. */
static int read_tops(PyObject *board, char *tops) {
    if (!PyTuple_Check(board) || PyTuple_GET_SIZE(board) != SQUARES) {
        PyErr_SetString(PyExc_TypeError, "a board is a tuple of 25 strings");
        return -1;
    }
    for (int i = 0; i < SQUARES; i++) {
        PyObject *column = PyTuple_GET_ITEM(board, i);
        if (!PyUnicode_Check(column)) {
            PyErr_SetString(PyExc_TypeError, "a board is a tuple of 25 strings");
            return -1;
        }
        Py_ssize_t length = PyUnicode_GET_LENGTH(column);
        tops[i] = length ? (char)PyUnicode_READ_CHAR(column, length - 1) : 0;
    }
    return 0;
}

/* A board's tops and a side to move (0 White, 1 Black, as any true or false integer). */
static int read_position(PyObject *board, PyObject *side_object, char *tops, int *side) {
    if (read_tops(board, tops) < 0) {
        return -1;
    }
    long value = PyLong_AsLong(side_object);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    *side = value ? 1 : 0;
    return 0;
}

static int is_white(char piece) { return piece == 'w' || piece == 'W'; }

/* ------------------------------------------------------------------ generate */

typedef struct {
    const char *tops;
    int origin;
    int far_rank;
    int continues;
    int side; /* the mover: its enemy's pieces are the other colour */
    int landings[MAX_PATH];
    int jumped[MAX_PATH];
    int length;
    PyObject *out;
} Capture;

static int is_enemy(const Capture *c, char piece) {
    return piece && is_white(piece) == (c->side == 1);
}

static int record(Capture *c) {
    char text[4 + 3 * MAX_PATH];
    int at = 0;
    text[at++] = name_of[c->origin][0];
    text[at++] = name_of[c->origin][1];
    PyObject *landings = PyTuple_New(c->length);
    PyObject *jumped = PyTuple_New(c->length);
    if (!landings || !jumped) {
        Py_XDECREF(landings);
        Py_XDECREF(jumped);
        return -1;
    }
    for (int k = 0; k < c->length; k++) {
        text[at++] = 'x';
        text[at++] = name_of[c->landings[k]][0];
        text[at++] = name_of[c->landings[k]][1];
        PyTuple_SET_ITEM(landings, k, PyLong_FromLong(c->landings[k]));
        PyTuple_SET_ITEM(jumped, k, PyLong_FromLong(c->jumped[k]));
    }
    text[at] = 0;
    PyObject *key = PyUnicode_FromStringAndSize(text, at);
    PyObject *data = key ? Py_BuildValue("(iNN)", c->origin, landings, jumped) : NULL;
    if (!data) {
        Py_XDECREF(key);
        if (!key) {
            Py_DECREF(landings);
            Py_DECREF(jumped);
        }
        return -1;
    }
    int failed = PyDict_SetItem(c->out, key, data);
    Py_DECREF(key);
    Py_DECREF(data);
    return failed;
}

/* Every maximal capture sequence going on from `at` (the engine's `_extend`). */
static int extend(Capture *c, int at, int kind) {
    int extended = 0;
    for (int j = 0; j < jump_count[kind][at]; j++) {
        int over = jump_over[kind][at][j], land = jump_land[kind][at][j];
        int taken = 0;
        for (int k = 0; k < c->length; k++) {
            taken |= c->jumped[k] == over;
        }
        if (taken || !is_enemy(c, c->tops[over]) || (c->tops[land] && land != c->origin)) {
            continue;
        }
        if (c->length >= MAX_PATH) {
            PyErr_SetString(PyExc_ValueError, "a capture sequence too long for a Lasca board");
            return -1;
        }
        extended = 1;
        c->landings[c->length] = land;
        c->jumped[c->length] = over;
        c->length++;
        int failed;
        if (kind != OFFICER && rank_of[land] == c->far_rank) {
            failed = c->continues ? extend(c, land, OFFICER) : record(c);
        } else {
            failed = extend(c, land, kind);
        }
        c->length--;
        if (failed) {
            return -1;
        }
    }
    if (!extended && c->length) {
        return record(c);
    }
    return 0;
}

static PyObject *generate(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "generate(board, side, continues)");
        return NULL;
    }
    char tops[SQUARES];
    int side, continues;
    if (read_position(args[0], args[1], tops, &side) < 0 || (continues = PyObject_IsTrue(args[2])) < 0) {
        return NULL;
    }
    char soldier = side ? 'b' : 'w', officer = side ? 'B' : 'W';
    int mover_at[SQUARES], mover_kind[SQUARES], movers = 0;
    Capture c = {tops, 0, side ? 1 : 7, continues, side, {0}, {0}, 0, NULL};
    c.out = PyDict_New();
    if (!c.out) {
        return NULL;
    }
    for (int i = 0; i < SQUARES; i++) {
        int kind;
        if (tops[i] == soldier) {
            kind = side;
        } else if (tops[i] == officer) {
            kind = OFFICER;
        } else {
            continue;
        }
        mover_at[movers] = i;
        mover_kind[movers++] = kind;
        for (int j = 0; j < jump_count[kind][i]; j++) {
            int over = jump_over[kind][i][j], land = jump_land[kind][i][j];
            if (is_enemy(&c, tops[over]) && !tops[land]) {
                c.origin = i;
                c.length = 0;
                if (extend(&c, i, kind) < 0) {
                    Py_DECREF(c.out);
                    return NULL;
                }
                break;
            }
        }
    }
    if (PyDict_GET_SIZE(c.out)) {
        return c.out;
    }
    for (int m = 0; m < movers; m++) {
        int i = mover_at[m], kind = mover_kind[m];
        for (int s = 0; s < step_count[kind][i]; s++) {
            if (!tops[step_to[kind][i][s]]) {
                if (PyDict_SetItem(c.out, step_text[kind][i][s], step_data[kind][i][s]) < 0) {
                    Py_DECREF(c.out);
                    return NULL;
                }
            }
        }
    }
    return c.out;
}

/* -------------------------------------------------------------------- apply */

static int square_index(PyObject *item) {
    long value = PyLong_AsLong(item);
    if (value < 0 || value >= SQUARES) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "a square index is 0 to 24");
        }
        return -1;
    }
    return (int)value;
}

static PyObject *apply(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "apply(board, side, data)");
        return NULL;
    }
    PyObject *board = args[0], *data = args[2];
    char tops[SQUARES];
    int side;
    if (read_position(board, args[1], tops, &side) < 0) {
        return NULL;
    }
    if (!PyTuple_Check(data) || PyTuple_GET_SIZE(data) != 3
        || !PyTuple_Check(PyTuple_GET_ITEM(data, 1)) || !PyTuple_Check(PyTuple_GET_ITEM(data, 2))) {
        PyErr_SetString(PyExc_TypeError, "move data is (origin, landings, jumped)");
        return NULL;
    }
    PyObject *landings = PyTuple_GET_ITEM(data, 1), *jumped = PyTuple_GET_ITEM(data, 2);
    Py_ssize_t landing_count = PyTuple_GET_SIZE(landings), jumped_count = PyTuple_GET_SIZE(jumped);
    int origin = square_index(PyTuple_GET_ITEM(data, 0));
    if (origin < 0) {
        return NULL;
    }
    PyObject *moving = PyTuple_GET_ITEM(board, origin);
    Py_ssize_t own = PyUnicode_GET_LENGTH(moving);
    if (!landing_count || !own || own + jumped_count > MAX_COLUMN) {
        PyErr_SetString(PyExc_ValueError, "not a move of this board");
        return NULL;
    }
    PyObject *squares = PyTuple_New(SQUARES);
    if (!squares) {
        return NULL;
    }
    for (int i = 0; i < SQUARES; i++) {
        PyObject *column = i == origin ? empty_column : PyTuple_GET_ITEM(board, i);
        Py_INCREF(column);
        PyTuple_SET_ITEM(squares, i, column);
    }
    /* The prisoners go under the column, the last taken lowest. */
    char column[MAX_COLUMN];
    Py_ssize_t length = 0;
    for (Py_ssize_t k = jumped_count - 1; k >= 0; k--) {
        int over = square_index(PyTuple_GET_ITEM(jumped, k));
        if (over < 0 || !tops[over]) {
            if (over >= 0) {
                PyErr_SetString(PyExc_ValueError, "not a move of this board");
            }
            Py_DECREF(squares);
            return NULL;
        }
        column[length++] = tops[over];
    }
    for (Py_ssize_t k = 0; k < jumped_count; k++) {
        int over = square_index(PyTuple_GET_ITEM(jumped, k));
        PyObject *prisoner = PyTuple_GET_ITEM(board, over);
        PyObject *rest = PyUnicode_Substring(prisoner, 0, PyUnicode_GET_LENGTH(prisoner) - 1);
        if (!rest) {
            Py_DECREF(squares);
            return NULL;
        }
        Py_SETREF(((PyTupleObject *)squares)->ob_item[over], rest);
    }
    for (Py_ssize_t k = 0; k < own; k++) {
        column[length++] = (char)PyUnicode_READ_CHAR(moving, k);
    }
    char top = column[length - 1];
    int soldier = top == 'w' || top == 'b';
    int last = -1;
    for (Py_ssize_t k = 0; k < landing_count; k++) {
        last = square_index(PyTuple_GET_ITEM(landings, k));
        if (last < 0) {
            Py_DECREF(squares);
            return NULL;
        }
        if (soldier && rank_of[last] == (side ? 1 : 7)) {
            column[length - 1] = (char)(top - 'a' + 'A');
        }
    }
    PyObject *moved = PyUnicode_FromStringAndSize(column, length);
    if (!moved) {
        Py_DECREF(squares);
        return NULL;
    }
    Py_SETREF(((PyTupleObject *)squares)->ob_item[last], moved);
    return Py_BuildValue("(NO)", squares, soldier || jumped_count ? Py_True : Py_False);
}

/* --------------------------------------------------------------- evaluation */

/* The weights, in the order of the fields of lasca_eval.Weights. */
enum {
    W_SOLDIER, W_OFFICER, W_HELD, W_NEAR, W_DEEP, W_BURIED, W_ADVANCE, W_STEP, W_TEMPO,
    W_HOME, W_THREAT, W_UNIT, W_RESERVE, W_RANK5, W_RANK6, W_EDGE, W_CENTRE, W_TRADE,
    W_BACKED, W_OFFICER_STEP, W_COUNT
};

/* Python's floor division, for weights that may be negative. */
static long long floor_div(long long a, long long b) {
    long long q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static long long piece_value(const long long *w, char piece) {
    return piece == 'W' || piece == 'B' ? w[W_OFFICER] : w[W_SOLDIER];
}

/* What a column (`length` pieces from the bottom up) is worth to White and to Black and what its
 * owner loses when its commander is taken (lasca_eval's `column_value`). */
static void column_value(const long long *w, const char *column, Py_ssize_t length,
                         long long *worth, long long *loss) {
    int owner = is_white(column[length - 1]) ? 0 : 1;
    worth[0] = worth[1] = 0;
    worth[owner] += w[W_UNIT] + piece_value(w, column[length - 1]);
    Py_ssize_t depth = length - 2;
    while (depth >= 0 && is_white(column[depth]) == (owner == 0)) {
        worth[owner] += floor_div(piece_value(w, column[depth]) * w[W_RESERVE], 100);
        depth--;
    }
    int first_prisoner = 1;
    while (depth >= 0) {
        char piece = column[depth];
        int side = is_white(piece) ? 0 : 1;
        if (side != owner) {
            worth[owner] += w[W_HELD];
            long long share = first_prisoner ? w[W_NEAR] : w[W_DEEP];
            worth[side] += floor_div(piece_value(w, piece) * share, 100);
            first_prisoner = 0;
        } else {
            worth[side] += floor_div(piece_value(w, piece) * w[W_BURIED], 100);
        }
        depth--;
    }
    *loss = piece_value(w, column[length - 1]) + w[W_HELD];
    if (length > 1 && is_white(column[length - 2]) != (owner == 0)) {
        *loss += piece_value(w, column[length - 2]);
    }
}

/* lasca_eval's board value for the side to move, of the columns (their tops in `tops`). */
static long long board_value(const long long *w, const char *tops, const char *const *columns,
                             const Py_ssize_t *lengths, int side) {
    long long score[2] = {0, 0}, danger = 0, worth[2], loss;
    int columns_left = 0;
    for (int i = 0; i < SQUARES; i++) {
        char top = tops[i];
        if (!top) {
            continue;
        }
        columns_left++;
        column_value(w, columns[i], lengths[i], worth, &loss);
        score[0] += worth[0];
        score[1] += worth[1];
        int kind, owner;
        if (top == 'w' || top == 'b') {
            kind = owner = top == 'w' ? 0 : 1;
            int rank = kind == 0 ? rank_of[i] : 8 - rank_of[i];
            score[owner] += w[W_ADVANCE] * (rank - 1);
            score[owner] += rank == 1 ? w[W_HOME] : rank == 5 ? w[W_RANK5] : rank == 6 ? w[W_RANK6] : 0;
            if (w[W_BACKED]) {
                int backed = 1;
                for (int s = 0; s < step_count[1 - kind][i]; s++) {
                    backed &= tops[step_to[1 - kind][i][s]] != 0;
                }
                score[owner] += backed ? w[W_BACKED] : 0;
            }
        } else {
            kind = OFFICER;
            owner = top == 'W' ? 0 : 1;
            score[owner] += edge_of[i] ? 0 : w[W_CENTRE];
        }
        score[owner] += edge_of[i] ? w[W_EDGE] : 0;
        int free = 0;
        for (int s = 0; s < step_count[kind][i]; s++) {
            free += !tops[step_to[kind][i][s]];
        }
        score[owner] += w[W_STEP] * free;
        if (kind == OFFICER) {
            score[owner] += w[W_OFFICER_STEP] * free;
        }
        if (w[W_THREAT] && owner != side) {
            for (int j = 0; j < jump_count[kind][i]; j++) {
                int over = jump_over[kind][i][j], land = jump_land[kind][i][j];
                if (tops[over] && !tops[land] && is_white(tops[over]) != (owner == 0)) {
                    long long taken[2], lost;
                    column_value(w, columns[over], lengths[over], taken, &lost);
                    danger = lost > danger ? lost : danger;
                }
            }
        }
    }
    long long lead = score[side] - score[1 - side];
    if (w[W_TRADE]) {
        long long gain = floor_div((lead < 0 ? -lead : lead) * w[W_TRADE] * (22 - columns_left), 100 * 22);
        lead += lead > 0 ? gain : -gain;
    }
    return lead + w[W_TEMPO] - floor_div(danger * w[W_THREAT], 100);
}

static PyObject *evaluate(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyBytes_Check(args[0])
        || PyBytes_GET_SIZE(args[0]) != (Py_ssize_t)(W_COUNT * sizeof(long long))) {
        PyErr_SetString(PyExc_TypeError, "evaluate(packed weights, board, side)");
        return NULL;
    }
    PyObject *board = args[1];
    char tops[SQUARES];
    int side;
    if (read_position(board, args[2], tops, &side) < 0) {
        return NULL;
    }
    long long w[W_COUNT];
    memcpy(w, PyBytes_AS_STRING(args[0]), sizeof w);
    char buffers[SQUARES][MAX_COLUMN];
    const char *columns[SQUARES];
    Py_ssize_t lengths[SQUARES];
    for (int i = 0; i < SQUARES; i++) {
        PyObject *text = PyTuple_GET_ITEM(board, i);
        Py_ssize_t length = PyUnicode_GET_LENGTH(text);
        if (length > MAX_COLUMN) {
            length = MAX_COLUMN;
        }
        for (Py_ssize_t k = 0; k < length; k++) {
            buffers[i][k] = (char)PyUnicode_READ_CHAR(text, k);
        }
        columns[i] = buffers[i];
        lengths[i] = length;
    }
    return PyLong_FromLongLong(board_value(w, tops, columns, lengths, side));
}


/* -------------------------------------------------------------- the proof search */

/* search(board, side, continues, seen, quiet, depth, alpha, beta): a plain full-width alpha-beta
 * (negamax) of `depth` plies by the rules of games/lasca.py: every legal move searched, no
 * reductions, no pruning but alpha-beta's. A finished game scores exactly (-SEARCH_WIN when the
 * side to move cannot move, 0 for a draw by threefold repetition or QUIET_LIMIT quiet plies), the
 * material at the horizon (a soldier on top 100, an officer 300, the side to move's less the
 * other's). `seen` and `quiet` are the state's: the boards since the last capture or soldier move,
 * oldest first, and the plies since. So a value >= SEARCH_WIN is a forced win inside the horizon,
 * <= -SEARCH_WIN a forced loss. A table of values by position, quiet plies, depth and the boards
 * seen (so a hit holds only under the same draw rules), and the best move by position to order the
 * moves, make it faster and change no value. */
#define SEARCH_WIN 100000
#define QUIET_LIMIT 80
#define MAX_LINE 256
#define MAX_MOVES 256
#define COLUMN 24
#define TABLE_BITS 20

typedef struct {
    unsigned char length[SQUARES];
    char pieces[SQUARES][COLUMN];
} Board;

typedef struct {
    unsigned char origin, count, captures; /* count landings; captures 0 for a step, else count */
    unsigned char landings[MAX_PATH], jumped[MAX_PATH];
} Move;

typedef struct {
    unsigned long long key, seen;
    signed char depth;
    int low, high;
    short best;
} Entry;

typedef struct {
    int continues;
    Board line[MAX_LINE]; /* the boards since the last irreversible move, the current last */
    int length, base;
    unsigned long long seen; /* a sum of the hashes of line[base:length-1] */
    Entry *table;
    Move *moves; /* MAX_MOVES a ply */
    int overflow;
} Search;

static unsigned long long mix(unsigned long long x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static unsigned long long board_hash(const Board *b, int side) {
    unsigned long long h = 1469598103934665603ULL ^ (unsigned long long)side;
    for (int i = 0; i < SQUARES; i++) {
        h = (h ^ b->length[i]) * 1099511628211ULL;
        for (int k = 0; k < b->length[i]; k++) {
            h = (h ^ (unsigned char)b->pieces[i][k]) * 1099511628211ULL;
        }
    }
    return mix(h);
}

typedef struct {
    const char *tops;
    int origin, far_rank, continues, side;
    Move current;
    Move *out;
    int count;
} Sequences;

static void add_sequence(Sequences *q, int captures) {
    if (q->count < MAX_MOVES) {
        q->out[q->count] = q->current;
        q->out[q->count].captures = (unsigned char)(captures ? q->current.count : 0);
    }
    q->count++;
}

/* The kernel's `extend` over a bare board. */
static void extend_moves(Sequences *q, int at, int kind) {
    int extended = 0;
    for (int j = 0; j < jump_count[kind][at]; j++) {
        int over = jump_over[kind][at][j], land = jump_land[kind][at][j];
        int taken = 0;
        for (int k = 0; k < q->current.count; k++) {
            taken |= q->current.jumped[k] == over;
        }
        char piece = q->tops[over];
        if (taken || !piece || is_white(piece) != (q->side == 1)
            || (q->tops[land] && land != q->origin) || q->current.count >= MAX_PATH) {
            continue;
        }
        extended = 1;
        q->current.landings[q->current.count] = land;
        q->current.jumped[q->current.count++] = over;
        if (kind != OFFICER && rank_of[land] == q->far_rank) {
            if (q->continues) {
                extend_moves(q, land, OFFICER);
            } else {
                add_sequence(q, 1);
            }
        } else {
            extend_moves(q, land, kind);
        }
        q->current.count--;
    }
    if (!extended && q->current.count) {
        add_sequence(q, 1);
    }
}

/* Every legal move of `side` (the kernel's `generate`, in its order); more than MAX_MOVES
 * sets the search's overflow. */
static int board_moves(Search *s, const Board *b, int side, Move *out) {
    char tops[SQUARES];
    for (int i = 0; i < SQUARES; i++) {
        tops[i] = b->length[i] ? b->pieces[i][b->length[i] - 1] : 0;
    }
    char soldier = side ? 'b' : 'w', officer = side ? 'B' : 'W';
    int mover_at[SQUARES], mover_kind[SQUARES], movers = 0;
    Sequences q = {tops, 0, side ? 1 : 7, s->continues, side, {0, 0, 0, {0}, {0}}, out, 0};
    for (int i = 0; i < SQUARES; i++) {
        int kind;
        if (tops[i] == soldier) {
            kind = side;
        } else if (tops[i] == officer) {
            kind = OFFICER;
        } else {
            continue;
        }
        mover_at[movers] = i;
        mover_kind[movers++] = kind;
        for (int j = 0; j < jump_count[kind][i]; j++) {
            int over = jump_over[kind][i][j], land = jump_land[kind][i][j];
            if (tops[over] && is_white(tops[over]) == (side == 1) && !tops[land]) {
                q.origin = i;
                q.current.origin = i;
                q.current.count = 0;
                extend_moves(&q, i, kind);
                break;
            }
        }
    }
    if (!q.count) {
        for (int m = 0; m < movers; m++) {
            int i = mover_at[m], kind = mover_kind[m];
            for (int k = 0; k < step_count[kind][i]; k++) {
                if (!tops[step_to[kind][i][k]]) {
                    q.current.origin = i;
                    q.current.count = 1;
                    q.current.landings[0] = step_to[kind][i][k];
                    add_sequence(&q, 0);
                }
            }
        }
    }
    if (q.count > MAX_MOVES) {
        s->overflow = 1;
        q.count = MAX_MOVES;
    }
    return q.count;
}

/* The kernel's `apply` over a bare board (prisoners under the column, the last taken lowest):
 * whether the move was irreversible (a capture or a soldier move). */
static int board_apply(const Board *b, int side, const Move *m, Board *out) {
    *out = *b;
    char column[2 * MAX_COLUMN];
    int length = 0;
    for (int k = m->captures - 1; k >= 0; k--) {
        int over = m->jumped[k];
        column[length++] = b->pieces[over][b->length[over] - 1];
    }
    for (int k = 0; k < m->captures; k++) {
        int over = m->jumped[k];
        out->pieces[over][--out->length[over]] = 0;
    }
    int origin = m->origin;
    for (int k = 0; k < b->length[origin]; k++) {
        column[length++] = b->pieces[origin][k];
    }
    memset(out->pieces[origin], 0, COLUMN);
    out->length[origin] = 0;
    char top = column[length - 1];
    int soldier = top == 'w' || top == 'b';
    int last = m->landings[m->count - 1];
    for (int k = 0; k < m->count && soldier; k++) {
        if (rank_of[m->landings[k]] == (side ? 1 : 7)) {
            column[length - 1] = (char)(top - 'a' + 'A');
        }
    }
    if (length > COLUMN) { /* not reached: a board holds 22 pieces */
        length = COLUMN;
    }
    memset(out->pieces[last], 0, COLUMN);
    memcpy(out->pieces[last], column, (size_t)length);
    out->length[last] = (unsigned char)length;
    return soldier || m->captures;
}

static int material(const Board *b, int side) {
    int score = 0;
    for (int i = 0; i < SQUARES; i++) {
        if (b->length[i]) {
            char top = b->pieces[i][b->length[i] - 1];
            int value = top == 'W' || top == 'B' ? 300 : 100;
            score += is_white(top) == (side == 0) ? value : -value;
        }
    }
    return score;
}

static int negamax(Search *s, int side, int quiet, int depth, int alpha, int beta) {
    const Board *b = &s->line[s->length - 1];
    Move *moves = s->moves + (size_t)(s->length - 1) * MAX_MOVES;
    int count = board_moves(s, b, side, moves);
    if (!count) {
        return -SEARCH_WIN;
    }
    int seen = 0; /* a third time: the same side to move lies two boards apart */
    for (int back = s->length - 3; back >= s->base; back -= 2) {
        seen += !memcmp(&s->line[back], b, sizeof(Board));
    }
    if (seen >= 2 || quiet >= QUIET_LIMIT) {
        return 0;
    }
    if (depth <= 0) {
        return material(b, side);
    }
    unsigned long long key = mix(board_hash(b, side) ^ (unsigned long long)quiet << 32);
    Entry *entry = &s->table[key & ((1ULL << TABLE_BITS) - 1)];
    int hint = -1;
    if (entry->key == key) {
        hint = entry->best;
        if (entry->seen == s->seen && entry->depth == depth) {
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
    if (hint >= count) {
        hint = -1;
    }
    int start_alpha = alpha, best = -2 * SEARCH_WIN, best_move = 0;
    for (int n = 0; n < count && alpha < beta; n++) {
        int k = n == 0 && hint >= 0 ? hint : n > 0 && n <= hint ? n - 1 : n;
        if (s->length >= MAX_LINE) {
            s->overflow = 1;
            return material(b, side);
        }
        int saved_base = s->base;
        unsigned long long saved_seen = s->seen;
        int irreversible = board_apply(b, side, &moves[k], &s->line[s->length]);
        if (irreversible) {
            s->base = s->length;
            s->seen = 0;
        } else {
            s->seen += board_hash(b, side);
        }
        s->length++;
        int score = -negamax(s, 1 - side, irreversible ? 0 : quiet + 1, depth - 1, -beta, -alpha);
        s->length--;
        s->base = saved_base;
        s->seen = saved_seen;
        b = &s->line[s->length - 1];
        if (score > best) {
            best = score;
            best_move = k;
            if (score > alpha) {
                alpha = score;
            }
        }
    }
    int low = -2 * SEARCH_WIN, high = 2 * SEARCH_WIN;
    if (best <= start_alpha) {
        high = best;
    } else if (best >= beta) {
        low = best;
    } else {
        low = high = best;
    }
    entry->key = key;
    entry->seen = s->seen;
    entry->depth = (signed char)depth;
    entry->low = low;
    entry->high = high;
    entry->best = (short)best_move;
    return best;
}

static int read_board(PyObject *board, Board *out) {
    memset(out, 0, sizeof *out);
    if (!PyTuple_Check(board) || PyTuple_GET_SIZE(board) != SQUARES) {
        PyErr_SetString(PyExc_TypeError, "a board is a tuple of 25 strings");
        return -1;
    }
    for (int i = 0; i < SQUARES; i++) {
        PyObject *column = PyTuple_GET_ITEM(board, i);
        if (!PyUnicode_Check(column) || PyUnicode_GET_LENGTH(column) > COLUMN) {
            PyErr_SetString(PyExc_TypeError, "a board is a tuple of 25 strings");
            return -1;
        }
        Py_ssize_t length = PyUnicode_GET_LENGTH(column);
        for (Py_ssize_t k = 0; k < length; k++) {
            Py_UCS4 piece = PyUnicode_READ_CHAR(column, k);
            if (piece != 'w' && piece != 'b' && piece != 'W' && piece != 'B') {
                PyErr_SetString(PyExc_ValueError, "a column holds only w, b, W and B");
                return -1;
            }
            out->pieces[i][k] = (char)piece;
        }
        out->length[i] = (unsigned char)length;
    }
    return 0;
}

static PyObject *search(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError,
                        "search(board, side, continues, seen, quiet, depth, alpha, beta)");
        return NULL;
    }
    long side = PyLong_AsLong(args[1]), quiet = PyLong_AsLong(args[4]);
    long depth = PyLong_AsLong(args[5]), alpha = PyLong_AsLong(args[6]), beta = PyLong_AsLong(args[7]);
    int continues = PyObject_IsTrue(args[2]);
    if (PyErr_Occurred() || continues < 0) {
        return NULL;
    }
    if (side < 0 || side > 1 || quiet < 0 || quiet > QUIET_LIMIT || depth < 0 || depth > 60
        || alpha < -4 * SEARCH_WIN || beta > 4 * SEARCH_WIN) {
        PyErr_SetString(PyExc_ValueError, "search: side 0 or 1, quiet 0 to 80, depth 0 to 60");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s) {
        return PyErr_NoMemory();
    }
    s->continues = continues;
    PyObject *seen = PySequence_Fast(args[3], "seen is a sequence of boards");
    if (!seen) {
        free(s);
        return NULL;
    }
    Py_ssize_t length = PySequence_Fast_GET_SIZE(seen);
    if (length > QUIET_LIMIT + 1) {
        Py_DECREF(seen);
        free(s);
        PyErr_SetString(PyExc_ValueError, "seen holds at most 81 boards");
        return NULL;
    }
    int failed = 0;
    for (Py_ssize_t k = 0; k < length && !failed; k++) {
        failed = read_board(PySequence_Fast_GET_ITEM(seen, k), &s->line[k]) < 0;
        if (!failed) {
            s->seen += board_hash(&s->line[k], (int)((side + (length - k)) % 2));
        }
    }
    Py_DECREF(seen);
    if (failed || read_board(args[0], &s->line[length]) < 0) {
        free(s);
        return NULL;
    }
    s->length = (int)length + 1;
    s->table = calloc((size_t)1 << TABLE_BITS, sizeof(Entry));
    s->moves = malloc((size_t)MAX_LINE * MAX_MOVES * sizeof(Move));
    if (!s->table || !s->moves) {
        free(s->table);
        free(s->moves);
        free(s);
        return PyErr_NoMemory();
    }
    int result = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int d = 1; d <= depth; d++) { /* deepening only orders the moves of the last pass */
        result = negamax(s, (int)side, (int)quiet, d, (int)alpha, (int)beta);
    }
    Py_END_ALLOW_THREADS
    int overflow = s->overflow;
    free(s->table);
    free(s->moves);
    free(s);
    if (overflow) {
        PyErr_SetString(PyExc_ValueError, "search: more moves or plies than the kernel holds");
        return NULL;
    }
    return PyLong_FromLong(result);
}


/* --------------------------------------------------------------- the timed search */

/* think(board, side, continues, seen, quiet, weights, moves, max_depth, quiescence, reductions,
 *       table, clock, deadline):
 * the timed search of timed_search.h over LascaGame's rules (games/ai/lasca_game.py: no move
 * loses, then a threefold repetition of the boards since the last capture or soldier move, then
 * QUIET_LIMIT quiet plies draw; captures compulsory, so a capture due is forced and searched out
 * past the horizon), its leaves valued by lasca_eval's weights (a Weights, packed). `moves` are
 * the root's legal moves (their texts) in the order that decides among equal ones. Returns
 * (index into moves, score, depth, nodes). */
#define G_MAX_MOVES MAX_MOVES
#define G_LINE (QUIET_LIMIT + 2 + TS_STACK + 2)
#define NEAR_QUIET_LIMIT (QUIET_LIMIT - 20)
#define LASCA_FUTILITY 150 /* points a ply: reverse futility pruning, see timed_search.h */

typedef struct Game {
    Search rules; /* board_moves reads its `continues` and sets its `overflow` */
    long long w[W_COUNT];
    Board line[G_LINE]; /* the root's seen boards, then a board a ply */
    int first; /* line[first] is the root's board */
    int top;
    int side[TS_STACK + 1], quiet[TS_STACK + 1], base[TS_STACK + 1];
} Game;

static const Board *current(const Game *g) { return &g->line[g->first + g->top]; }

/* Whether the board is there for the third time (twice before, the same side to move). */
static int repeated(const Game *g) {
    const Board *b = current(g);
    int top = g->top, seen = 0;
    for (int back = g->first + top - 2; back >= g->base[top]; back -= 2) {
        seen += !memcmp(&g->line[back], b, sizeof(Board));
    }
    return seen >= 2;
}

static int g_expand(Game *g, int ply, Move *moves, int *count) {
    (void)ply;
    const Board *b = current(g);
    int top = g->top;
    *count = board_moves(&g->rules, b, g->side[top], moves);
    if (!*count) {
        return -TS_WIN;
    }
    if (repeated(g) || g->quiet[top] >= QUIET_LIMIT) {
        return 0;
    }
    if (*count > 1 && moves[0].captures) { /* the longest captures first, else in their order */
        for (int i = 1; i < *count; i++) {
            for (int j = i; j > 0 && moves[j - 1].captures < moves[j].captures; j--) {
                Move swap = moves[j];
                moves[j] = moves[j - 1];
                moves[j - 1] = swap;
            }
        }
    }
    return TS_NONE;
}

static void g_play(Game *g, const Move *move) {
    int top = g->top, at = g->first + top;
    int irreversible = board_apply(&g->line[at], g->side[top], move, &g->line[at + 1]);
    g->side[top + 1] = 1 - g->side[top];
    g->quiet[top + 1] = irreversible ? 0 : g->quiet[top] + 1;
    g->base[top + 1] = irreversible ? at + 1 : g->base[top];
    g->top++;
}

static void g_undo(Game *g) { g->top--; }

static int g_evaluate(Game *g) {
    const Board *b = current(g);
    char tops[SQUARES];
    const char *columns[SQUARES];
    Py_ssize_t lengths[SQUARES];
    for (int i = 0; i < SQUARES; i++) {
        tops[i] = b->length[i] ? b->pieces[i][b->length[i] - 1] : 0;
        columns[i] = b->pieces[i];
        lengths[i] = b->length[i];
    }
    return (int)board_value(g->w, tops, columns, lengths, g->side[g->top]);
}

/* LascaGame.key: near the 80-ply draw the same board is worth something else, and a board drawn
 * by the 80-ply rule or by repetition is finished. */
static uint64_t g_key(Game *g) {
    int quiet = g->quiet[g->top];
    uint64_t near = quiet < NEAR_QUIET_LIMIT ? 0 : quiet < QUIET_LIMIT ? 1 : 2;
    return mix(board_hash(current(g), g->side[g->top]) ^ near << 40 ^ (uint64_t)repeated(g) << 42);
}

/* LascaGame.tactics: a capture due is all there is to play, and worth searching out. */
static int g_tactics(Game *g, const Move *moves, int count, unsigned char *loud) {
    (void)g;
    int forced = count > 0 && moves[0].captures > 0;
    memset(loud, forced, (size_t)count);
    return forced;
}

static int g_move_id(const Move *move) {
    uint64_t h = (uint64_t)move->origin;
    for (int k = 0; k < move->count; k++) {
        h = h * 31 + (uint64_t)move->landings[k];
    }
    return (int)(mix(h) & 0x3fffffff);
}

/* A move's canonical text (the engine's): a3-b4, or c3xe5xc7 for captures. */
static int move_text(const Move *move, char *text) {
    int at = 0;
    text[at++] = name_of[move->origin][0];
    text[at++] = name_of[move->origin][1];
    for (int k = 0; k < move->count; k++) {
        text[at++] = move->captures ? 'x' : '-';
        text[at++] = name_of[move->landings[k]][0];
        text[at++] = name_of[move->landings[k]][1];
    }
    text[at] = 0;
    return at;
}

#define G_FUTILITY LASCA_FUTILITY
#include "timed_search.h"

static PyObject *think(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 13) {
        PyErr_SetString(PyExc_TypeError,
                        "think(board, side, continues, seen, quiet, weights, moves, max_depth, "
                        "quiescence, reductions, table, clock, deadline)");
        return NULL;
    }
    Ts *t = PyMem_RawCalloc(1, sizeof(Ts));
    Game *g = PyMem_RawCalloc(1, sizeof(Game));
    PyObject *seen = NULL, *given = NULL, *result = NULL;
    int max_depth = 0;
    if (!t || !g) {
        PyErr_NoMemory();
        goto done;
    }
    t->g = g;
    long side = PyLong_AsLong(args[1]), quiet = PyLong_AsLong(args[4]);
    int continues = PyObject_IsTrue(args[2]);
    if (PyErr_Occurred() || continues < 0) {
        goto done;
    }
    if (side < 0 || side > 1 || quiet < 0 || quiet > QUIET_LIMIT) {
        PyErr_SetString(PyExc_ValueError, "think: side 0 or 1, quiet 0 to 80");
        goto done;
    }
    g->rules.continues = continues;
    if (!PyBytes_Check(args[5]) || PyBytes_GET_SIZE(args[5]) != (Py_ssize_t)sizeof g->w) {
        PyErr_SetString(PyExc_TypeError, "think: the weights are a lasca_eval.Weights, packed");
        goto done;
    }
    memcpy(g->w, PyBytes_AS_STRING(args[5]), sizeof g->w);
    seen = PySequence_Fast(args[3], "seen is a sequence of boards");
    if (!seen) {
        goto done;
    }
    Py_ssize_t length = PySequence_Fast_GET_SIZE(seen);
    if (length > QUIET_LIMIT + 1) {
        PyErr_SetString(PyExc_ValueError, "seen holds at most 81 boards");
        goto done;
    }
    for (Py_ssize_t k = 0; k < length; k++) {
        if (read_board(PySequence_Fast_GET_ITEM(seen, k), &g->line[k]) < 0) {
            goto done;
        }
    }
    if (read_board(args[0], &g->line[length]) < 0) {
        goto done;
    }
    g->first = (int)length;
    g->side[0] = (int)side;
    g->quiet[0] = (int)quiet;
    g->base[0] = 0;
    if (ts_options(t, args + 7, &max_depth) < 0) {
        goto done;
    }
    uint64_t salt = mix((uint64_t)continues << 1 | (uint64_t)t->quiescence << 8);
    for (int k = 0; k < W_COUNT; k++) {
        salt = mix(salt ^ (uint64_t)g->w[k]);
    }
    t->salt = salt;
    Move *legal = t->moves[1]; /* free until the search starts */
    int legal_count;
    if (g_expand(g, 0, legal, &legal_count) != TS_NONE || g->rules.overflow) {
        PyErr_SetString(PyExc_ValueError, "think: the game is over (or too many moves)");
        goto done;
    }
    given = PySequence_Fast(args[6], "moves are a sequence of texts");
    if (!given) {
        goto done;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(given);
    if (count != legal_count) {
        PyErr_SetString(PyExc_ValueError, "think: the root moves are the legal ones, each once");
        goto done;
    }
    int order[G_MAX_MOVES];
    char used[G_MAX_MOVES] = {0};
    for (Py_ssize_t k = 0; k < count; k++) {
        const char *text = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(given, k));
        if (!text) {
            goto done;
        }
        int found = -1;
        for (int j = 0; j < legal_count && found < 0; j++) {
            char own[4 + 3 * MAX_PATH];
            move_text(&legal[j], own);
            if (!used[j] && !strcmp(own, text)) {
                found = j;
            }
        }
        if (found < 0) {
            PyErr_Format(PyExc_ValueError, "think: %s is not a legal move here", text);
            goto done;
        }
        used[found] = 1;
        t->moves[0][k] = legal[found];
        order[k] = (int)k;
    }
    int score, depth;
    int best = ts_iterate(t, t->moves[0], order, (int)count, max_depth, &score, &depth);
    if (g->rules.overflow) {
        PyErr_SetString(PyExc_ValueError, "think: more moves than the kernel holds");
    } else if (best >= 0) {
        result = Py_BuildValue("(iiiL)", best, score, depth, t->nodes);
    }
done:
    Py_XDECREF(seen);
    Py_XDECREF(given);
    PyMem_RawFree(g);
    PyMem_RawFree(t);
    return result;
}

static PyMethodDef methods[] = {
    {"generate", (PyCFunction)(void (*)(void))generate, METH_FASTCALL,
     "generate(board, side, continues): every legal move, text to (origin, landings, jumped)."},
    {"apply", (PyCFunction)(void (*)(void))apply, METH_FASTCALL,
     "apply(board, side, data): the board after the move, and whether it was irreversible."},
    {"evaluate", (PyCFunction)(void (*)(void))evaluate, METH_FASTCALL,
     "evaluate(weights, board, side): the board's value for the side to move."},
    {"search", (PyCFunction)(void (*)(void))search, METH_FASTCALL,
     "search(board, side, continues, seen, quiet, depth, alpha, beta): a plain full-width"
     " alpha-beta's value for the side to move."},
    {"think", (PyCFunction)(void (*)(void))think, METH_FASTCALL,
     "think(board, side, continues, seen, quiet, weights, moves, max_depth, quiescence,"
     " reductions, table, clock, deadline): the timed search's (move index, score, depth, nodes)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_lasca_kernel", "Lasca's search kernel in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__lasca_kernel(void) {
    if (build_tables() < 0) {
        return NULL;
    }
    return PyModule_Create(&module);
}
