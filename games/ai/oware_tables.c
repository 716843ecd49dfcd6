/* Oware endgame tables by retrograde analysis: the build helper of
 * games/ai/make_oware_tables.py, which compiles and runs it (gcc -O2).
 *
 *     oware_tables MAX_SEEDS GRANDSLAM OUT
 *
 * GRANDSLAM: 0 forbidden, 1 nocapture, 2 opponent-takes (games/oware.py).
 * Writes, for every position with 0..MAX_SEEDS seeds on the board in the
 * order of games/ai/oware_tables.py (by seeds on the board, then the pits in
 * lexicographic order, the mover's six first), a byte low | high << 4: the
 * least and the most of the seeds on the board the player to move captures,
 * over every history the repetition rule could give; then, for every
 * position, a byte with a move that attains low (the mover's pit 0..5; 7
 * where there is no move). Why the bounds hold is in oware_tables.py's
 * docstring; this file follows games/oware.py's rules line by line (OwareRules
 * in games/ai/oware_game.py is the same in Python). Prints per layer how many
 * positions are exact (low == high).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PITS 12
#define NOMOVE 7

static int max_seeds, grandslam;
static int64_t cnt[PITS + 1][64]; /* cnt[k][s]: ways to put s seeds in k pits */
static int64_t layer_size[64], layer_base[64];
static int8_t *glo, *ghi; /* the bounds of every position, every layer */
static uint8_t *moves;    /* the move that attains lo, NOMOVE where there is none */

static int64_t rank_of(const int *a, int n) {
    int64_t r = 0;
    int rem = n;
    for (int i = 0; i < PITS - 1; i++) {
        for (int v = 0; v < a[i]; v++) r += cnt[PITS - 1 - i][rem - v];
        rem -= a[i];
    }
    return r;
}

static void unrank(int64_t r, int n, int *a) {
    int rem = n;
    for (int i = 0; i < PITS - 1; i++) {
        int v = 0;
        while (r >= cnt[PITS - 1 - i][rem - v]) {
            r -= cnt[PITS - 1 - i][rem - v];
            v++;
        }
        a[i] = v;
        rem -= v;
    }
    a[PITS - 1] = rem;
}

/* Sow pit `o` of the mover (0..5) in `a` into `b`; return the last pit. */
static int sow(const int *a, int o, int *b) {
    int n = a[o];
    int laps = n / 11, rest = n % 11;
    for (int i = 0; i < PITS; i++) b[i] = a[i] + laps;
    b[o] = 0;
    for (int s = 1; s <= rest; s++) b[(o + s) % PITS]++;
    return (o + (rest ? rest : 11)) % PITS;
}

/* The capture of a sowing ending in `last`: pits low..high-1, or low == high. */
static void capture_range(const int *b, int last, int *low, int *high) {
    *low = *high = 0;
    if (last < 6 || (b[last] != 2 && b[last] != 3)) return;
    int lo = last;
    while (lo > 6 && (b[lo - 1] == 2 || b[lo - 1] == 3)) lo--;
    *low = lo;
    *high = last + 1;
}

static int is_grand_slam(const int *b, int low, int high) {
    if (low == high) return 0;
    for (int i = 6; i < low; i++)
        if (b[i]) return 0;
    for (int i = high; i < PITS; i++)
        if (b[i]) return 0;
    return 1;
}

/* One legal move's result: the child (opponent to move) or an exit value. */
typedef struct {
    int move;
    int seeds;     /* seeds left on the board */
    int64_t child; /* rank of the child within its layer */
    int gained;    /* seeds the mover took off the board by the move */
} Move;

/* The legal moves of `a` (n seeds) and their results; returns how many. */
static int moves_of(const int *a, int n, Move *out) {
    int legal[6], count = 0;
    for (int i = 0; i < 6; i++)
        if (a[i]) legal[count++] = i;
    if (!count) return 0;
    int fed = 0;
    for (int i = 6; i < PITS; i++) fed |= a[i];
    if (!fed) {
        int k = 0;
        for (int j = 0; j < count; j++)
            if (a[legal[j]] >= 6 - legal[j]) legal[k++] = legal[j];
        count = k;
        if (!count) return 0;
    }
    /* must-play-12 never restricts with at most 12 seeds on the board. */
    int b[PITS], low, high;
    if (grandslam == 0) {
        int k = 0;
        for (int j = 0; j < count; j++) {
            int last = sow(a, legal[j], b);
            capture_range(b, last, &low, &high);
            if (!is_grand_slam(b, low, high)) legal[k++] = legal[j];
        }
        if (k) count = k;
    }
    for (int j = 0; j < count; j++) {
        int o = legal[j];
        int last = sow(a, o, b);
        capture_range(b, last, &low, &high);
        int takes = 0;
        if (is_grand_slam(b, low, high)) {
            if (grandslam != 2)
                low = high = 0;
            else
                takes = 1;
        }
        int gained = 0;
        for (int i = low; i < high; i++) {
            gained += b[i];
            b[i] = 0;
        }
        int seeds = n - gained;
        if (takes) { /* the starved opponent takes the mover's row */
            for (int i = 0; i < 6; i++) {
                seeds -= b[i];
                b[i] = 0;
            }
        }
        int c[PITS];
        for (int i = 0; i < 6; i++) {
            c[i] = b[i + 6];
            c[i + 6] = b[i];
        }
        out[j].move = o;
        out[j].seeds = seeds;
        out[j].child = rank_of(c, seeds);
        out[j].gained = gained;
    }
    return count;
}

/* The mover's own row: what it takes if the game ends here by a share-out. */
static int own_row(const int *a) {
    int own = 0;
    for (int i = 0; i < 6; i++) own += a[i];
    return own;
}

/* The strongly connected components of the layer's no-capture moves
 * (Tarjan's algorithm, without recursion): comp[p] for every position. */
static int32_t *components(int64_t size, const int32_t *kids, const int8_t *nkids) {
    int32_t *order = malloc(sizeof(int32_t) * size), *low = malloc(sizeof(int32_t) * size);
    int32_t *comp = malloc(sizeof(int32_t) * size), *stack = malloc(sizeof(int32_t) * size);
    int32_t *calls = malloc(sizeof(int32_t) * size);
    int8_t *next = calloc(size, 1);
    uint8_t *on = calloc(size, 1);
    for (int64_t p = 0; p < size; p++) order[p] = -1;
    int32_t counter = 0, ncomp = 0;
    int64_t sp = 0, cp = 0;
    for (int64_t s = 0; s < size; s++) {
        if (order[s] >= 0) continue;
        order[s] = low[s] = counter++;
        stack[sp++] = (int32_t)s;
        on[s] = 1;
        calls[cp++] = (int32_t)s;
        while (cp) {
            int32_t v = calls[cp - 1];
            if (next[v] < nkids[v]) {
                int32_t w = kids[6 * (int64_t)v + next[v]++];
                if (order[w] < 0) {
                    order[w] = low[w] = counter++;
                    stack[sp++] = w;
                    on[w] = 1;
                    calls[cp++] = w;
                } else if (on[w] && order[w] < low[v]) {
                    low[v] = order[w];
                }
                continue;
            }
            cp--;
            if (low[v] == order[v]) {
                int32_t w;
                do {
                    w = stack[--sp];
                    on[w] = 0;
                    comp[w] = ncomp;
                } while (w != v);
                ncomp++;
            }
            if (cp) {
                int32_t u = calls[cp - 1];
                if (low[v] < low[u]) low[u] = low[v];
            }
        }
    }
    free(order);
    free(low);
    free(stack);
    free(calls);
    free(next);
    free(on);
    return comp;
}

/* One layer: the bounds low..high of every position with n seeds on the board
 * that hold whatever the game's history, and a move that attains low
 * (games/ai/oware_tables.py's docstring says why they hold).
 *
 * A child c of p (a no-capture move) can be a repeated position only if c can
 * reach p, that is when c lies in p's component of the layer's move graph; then
 * it counts as the worse of the share-out (c's mover takes own[c]) and its
 * bounds for p's lower bound, the better for the upper. Components are solved
 * sinks first, so every child outside p's component is final. Within one, the
 * iteration starts where every child of the component is a repetition (the
 * history holds the whole component) and loosens: low only falls, high only
 * rises, each round allowing one more position of the component to be new. */
static void solve_layer(int n) {
    int64_t size = layer_size[n];
    int8_t *lo = glo + layer_base[n], *hi = ghi + layer_base[n];
    uint8_t *best = moves + layer_base[n];
    int8_t *exit_lo = malloc(size), *exit_hi = malloc(size), *nkids = malloc(size);
    int8_t *exit_move = malloc(size), *own = malloc(size);
    int32_t *kids = malloc(sizeof(int32_t) * 6 * size);
    int8_t *kidmove = malloc(6 * size);
    uint8_t *kidrep = malloc(6 * size);
    int8_t *terminal = malloc(size);
    int a[PITS];
    Move mv[6];

    for (int64_t p = 0; p < size; p++) {
        unrank(p, n, a);
        own[p] = (int8_t)own_row(a);
        int count = moves_of(a, n, mv);
        nkids[p] = 0;
        terminal[p] = !count;
        exit_lo[p] = exit_hi[p] = -1;
        exit_move[p] = NOMOVE;
        if (!count) {
            /* No seeds: the mover takes nothing; cannot feed: the mover takes its row. */
            lo[p] = hi[p] = own[p];
            continue;
        }
        for (int j = 0; j < count; j++) {
            if (mv[j].seeds < n) { /* a capture: a smaller layer, its bounds final */
                int64_t at = layer_base[mv[j].seeds] + mv[j].child;
                int vl = mv[j].gained + mv[j].seeds - ghi[at];
                int vh = mv[j].gained + mv[j].seeds - glo[at];
                if (vl > exit_lo[p]) {
                    exit_lo[p] = (int8_t)vl;
                    exit_move[p] = (int8_t)mv[j].move;
                }
                if (vh > exit_hi[p]) exit_hi[p] = (int8_t)vh;
            } else {
                kids[6 * p + nkids[p]] = (int32_t)mv[j].child;
                kidmove[6 * p + nkids[p]] = (int8_t)mv[j].move;
                nkids[p]++;
            }
        }
    }

    int32_t *comp = components(size, kids, nkids);
    int32_t ncomp = 0;
    for (int64_t p = 0; p < size; p++) {
        if (comp[p] >= ncomp) ncomp = comp[p] + 1;
        for (int j = 0; j < nkids[p]; j++) kidrep[6 * p + j] = comp[kids[6 * p + j]] == comp[p];
    }
    /* The members of each component, components in the order found (sinks first). */
    int64_t *first = calloc(ncomp + 1, sizeof(int64_t));
    for (int64_t p = 0; p < size; p++) first[comp[p] + 1]++;
    for (int32_t c = 0; c < ncomp; c++) first[c + 1] += first[c];
    int32_t *members = malloc(sizeof(int32_t) * size);
    int64_t *fill = malloc(sizeof(int64_t) * (ncomp + 1));
    memcpy(fill, first, sizeof(int64_t) * (ncomp + 1));
    for (int64_t p = 0; p < size; p++) members[fill[comp[p]]++] = (int32_t)p;
    free(fill);

    /* Predecessors (CSR) within the layer. */
    int64_t *start = calloc(size + 1, sizeof(int64_t));
    for (int64_t p = 0; p < size; p++)
        for (int j = 0; j < nkids[p]; j++) start[kids[6 * p + j] + 1]++;
    for (int64_t p = 0; p < size; p++) start[p + 1] += start[p];
    int32_t *preds = malloc(sizeof(int32_t) * (start[size] + 1));
    fill = malloc(sizeof(int64_t) * size);
    memcpy(fill, start, sizeof(int64_t) * size);
    for (int64_t p = 0; p < size; p++)
        for (int j = 0; j < nkids[p]; j++) preds[fill[kids[6 * p + j]]++] = (int32_t)p;
    free(fill);

    int32_t *queue = malloc(sizeof(int32_t) * size);
    uint8_t *queued = calloc(size, 1);
    /* What p's exits and its children outside the component give. */
    int8_t *fixed_lo = malloc(size), *fixed_hi = malloc(size);
    for (int32_t c = 0; c < ncomp; c++) {
        int64_t from = first[c], to = first[c + 1], count = to - from;
        for (int64_t k = from; k < to; k++) {
            int32_t p = members[k];
            if (terminal[p]) continue;
            int fl = exit_lo[p], fh = exit_hi[p], bl = fl, bh = fh;
            for (int j = 0; j < nkids[p]; j++) {
                int32_t q = kids[6 * p + j];
                if (kidrep[6 * p + j]) { /* the bottom: q repeats */
                    int v = n - own[q];
                    if (v > bl) bl = v;
                    if (v > bh) bh = v;
                } else {
                    int vl = n - hi[q], vh = n - lo[q];
                    if (vl > fl) fl = vl;
                    if (vh > fh) fh = vh;
                }
            }
            fixed_lo[p] = (int8_t)fl;
            fixed_hi[p] = (int8_t)fh;
            lo[p] = (int8_t)(bl > fl ? bl : fl);
            hi[p] = (int8_t)(bh > fh ? bh : fh);
        }
        if (count == 1) continue; /* no cycle through a lone position */
        int64_t head = 0, tail = 0, waiting = count;
        for (int64_t k = from; k < to; k++) {
            queue[tail++] = members[k];
            queued[members[k]] = 1;
        }
        tail %= size;
        while (waiting) {
            int32_t p = queue[head];
            head = (head + 1) % size;
            waiting--;
            queued[p] = 0;
            int new_lo = fixed_lo[p], new_hi = fixed_hi[p];
            for (int j = 0; j < nkids[p]; j++) {
                if (!kidrep[6 * p + j]) continue;
                int32_t q = kids[6 * p + j];
                int worst = hi[q] > own[q] ? hi[q] : own[q];
                int better = lo[q] < own[q] ? lo[q] : own[q];
                if (n - worst > new_lo) new_lo = n - worst;
                if (n - better > new_hi) new_hi = n - better;
            }
            if (new_lo < lo[p] || new_hi > hi[p]) {
                if (new_lo < lo[p]) lo[p] = (int8_t)new_lo;
                if (new_hi > hi[p]) hi[p] = (int8_t)new_hi;
                for (int64_t k = start[p]; k < start[p + 1]; k++) {
                    int32_t r = preds[k];
                    if (comp[r] == c && !queued[r]) {
                        queued[r] = 1;
                        queue[tail] = r;
                        tail = (tail + 1) % size;
                        waiting++;
                    }
                }
            }
        }
    }

    /* The move: one whose worst case is low (a capture first among equals). */
    int64_t exact = 0;
    for (int64_t p = 0; p < size; p++) {
        exact += lo[p] == hi[p];
        if (terminal[p]) {
            best[p] = NOMOVE;
            continue;
        }
        int value = exit_lo[p], move = exit_move[p];
        for (int j = 0; j < nkids[p]; j++) {
            int32_t q = kids[6 * p + j];
            int worst = hi[q];
            if (kidrep[6 * p + j] && own[q] > worst) worst = own[q];
            if (n - worst > value) {
                value = n - worst;
                move = kidmove[6 * p + j];
            }
        }
        if (value != lo[p]) {
            fprintf(stderr, "internal error: no move attains the bound\n");
            exit(3);
        }
        best[p] = (uint8_t)move;
    }
    int64_t largest = 0;
    for (int32_t c = 0; c < ncomp; c++)
        if (first[c + 1] - first[c] > largest) largest = first[c + 1] - first[c];
    fprintf(stderr, "%d seeds: %lld positions, %lld exact, largest cycle %lld\n", n,
            (long long)size, (long long)exact, (long long)largest);
    free(exit_lo);
    free(exit_hi);
    free(exit_move);
    free(nkids);
    free(own);
    free(kids);
    free(kidmove);
    free(kidrep);
    free(terminal);
    free(comp);
    free(first);
    free(members);
    free(start);
    free(preds);
    free(queue);
    free(queued);
    free(fixed_lo);
    free(fixed_hi);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s MAX_SEEDS GRANDSLAM OUT\n", argv[0]);
        return 2;
    }
    max_seeds = atoi(argv[1]);
    grandslam = atoi(argv[2]);
    if (max_seeds < 0 || max_seeds > 15 || grandslam < 0 || grandslam > 2) {
        fprintf(stderr, "MAX_SEEDS must be 0..15, GRANDSLAM 0..2\n");
        return 2;
    }
    for (int k = 0; k <= PITS; k++)
        for (int s = 0; s < 64; s++) {
            if (k == 0)
                cnt[k][s] = s == 0;
            else {
                int64_t c = 0;
                for (int v = 0; v <= s; v++) c += cnt[k - 1][s - v];
                cnt[k][s] = c;
            }
        }
    int64_t total = 0;
    for (int n = 0; n <= max_seeds; n++) {
        layer_size[n] = cnt[PITS][n];
        layer_base[n] = total;
        total += layer_size[n];
    }
    glo = calloc(total, 1);
    ghi = calloc(total, 1);
    moves = calloc(total, 1);
    for (int n = 0; n <= max_seeds; n++) solve_layer(n);
    uint8_t *out = malloc(2 * total);
    for (int64_t p = 0; p < total; p++) {
        out[p] = (uint8_t)(glo[p] | ghi[p] << 4);
        out[total + p] = moves[p];
    }
    FILE *f = fopen(argv[3], "wb");
    if (!f || fwrite(out, 1, 2 * total, f) != (size_t)(2 * total) || fclose(f)) {
        fprintf(stderr, "cannot write %s\n", argv[3]);
        return 1;
    }
    return 0;
}
