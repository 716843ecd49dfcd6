/* Oware endgame tables by retrograde analysis: the build helper of
 * games/ai/make_oware_tables.py, which compiles and runs it (gcc -O2).
 *
 *     oware_tables MAX_SEEDS GRANDSLAM OUT [BOUNDS]
 *
 * GRANDSLAM: 0 forbidden, 1 nocapture, 2 opponent-takes (games/oware.py).
 * Writes one byte per position with 0..MAX_SEEDS seeds on the board, in the
 * order of games/ai/oware_tables.py (by seeds on the board, then the pits in
 * lexicographic order, the mover's six first): the low four bits the value
 * (seeds of those on the board the player to move captures), the high four
 * the move to play (the mover's pit 0..5; 7 where there is no move). The
 * meaning of the value, the repetition convention and the move are in
 * games/ai/oware_tables.py's docstring; this file follows games/oware.py's
 * rules line by line (OwareRules in games/ai/oware_game.py is the same in
 * Python). With BOUNDS it also writes each position's forced bounds lo and
 * hi, a byte each (for checks; not shipped).
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
static uint8_t *table;  /* the output, every layer */
static uint8_t *bounds; /* lo, hi of every position, or NULL */

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

/* The mover's seeds of the board after playing `m`, from the child's value. */
static int through(const Move *m, int child_value) {
    return m->gained + (m->seeds - child_value);
}

static void solve_layer(int n) {
    int64_t size = layer_size[n];
    uint8_t *out = table + layer_base[n];
    int8_t *lo = malloc(size), *hi = malloc(size);
    int8_t *exit_best = malloc(size), *witness = malloc(size), *nkids = malloc(size);
    int32_t *kids = malloc(sizeof(int32_t) * 6 * size);
    int8_t *kidmove = malloc(6 * size);
    int8_t *terminal = malloc(size);
    int a[PITS];
    Move mv[6];

    for (int64_t p = 0; p < size; p++) {
        unrank(p, n, a);
        int count = moves_of(a, n, mv);
        nkids[p] = 0;
        terminal[p] = 0;
        if (!count) {
            int own = 0;
            for (int i = 0; i < 6; i++) own += a[i];
            /* No seeds: the mover takes nothing; cannot feed: the mover takes its row. */
            lo[p] = hi[p] = (int8_t)(own ? n : 0);
            witness[p] = NOMOVE;
            terminal[p] = 1;
            continue;
        }
        int best = -1, best_move = NOMOVE;
        for (int j = 0; j < count; j++) {
            if (mv[j].seeds < n) {
                int child = table[layer_base[mv[j].seeds] + mv[j].child] & 15;
                int v = through(&mv[j], child);
                if (v > best) {
                    best = v;
                    best_move = mv[j].move;
                }
            } else {
                kids[6 * p + nkids[p]] = (int32_t)mv[j].child;
                kidmove[6 * p + nkids[p]] = (int8_t)mv[j].move;
                nkids[p]++;
            }
        }
        exit_best[p] = (int8_t)best;
        /* Bottom of the iteration: the mover is sure of the exits only, the
         * opponent of nothing more than the exits and the whole board. */
        lo[p] = (int8_t)(best < 0 ? 0 : best);
        witness[p] = (int8_t)(best < 0 ? kidmove[6 * p] : best_move); /* any move keeps 0 */
        hi[p] = (int8_t)(nkids[p] ? n : best);
    }

    /* Predecessors (CSR) within the layer. */
    int64_t *start = calloc(size + 1, sizeof(int64_t));
    for (int64_t p = 0; p < size; p++)
        for (int j = 0; j < nkids[p]; j++) start[kids[6 * p + j] + 1]++;
    for (int64_t p = 0; p < size; p++) start[p + 1] += start[p];
    int32_t *preds = malloc(sizeof(int32_t) * (start[size] + 1));
    int64_t *fill = malloc(sizeof(int64_t) * size);
    memcpy(fill, start, sizeof(int64_t) * size);
    for (int64_t p = 0; p < size; p++)
        for (int j = 0; j < nkids[p]; j++) preds[fill[kids[6 * p + j]]++] = (int32_t)p;
    free(fill);

    /* Chaotic iteration from the bottom to the least fixpoint: lo only rises,
     * hi only falls. A FIFO worklist of positions whose children changed. */
    int32_t *queue = malloc(sizeof(int32_t) * size);
    uint8_t *queued = malloc(size);
    int64_t head = 0, tail = 0, queued_count = 0;
    for (int64_t p = 0; p < size; p++) {
        queued[p] = !terminal[p] && nkids[p];
        if (queued[p]) {
            queue[tail] = (int32_t)p;
            tail = (tail + 1) % size;
            queued_count++;
        }
    }
    while (queued_count) {
        int32_t p = queue[head];
        head = (head + 1) % size;
        queued_count--;
        queued[p] = 0;
        int new_lo = exit_best[p] < 0 ? -1 : exit_best[p], new_hi = exit_best[p];
        int lo_move = witness[p];
        for (int j = 0; j < nkids[p]; j++) {
            int32_t q = kids[6 * p + j];
            int vl = n - hi[q], vh = n - lo[q];
            if (vl > new_lo) {
                new_lo = vl;
                lo_move = kidmove[6 * p + j];
            }
            if (vh > new_hi) new_hi = vh;
        }
        int changed = 0;
        if (new_lo > lo[p]) {
            lo[p] = (int8_t)new_lo;
            witness[p] = (int8_t)lo_move; /* the move that first reached this bound */
            changed = 1;
        }
        if (new_hi < hi[p]) {
            hi[p] = (int8_t)new_hi;
            changed = 1;
        }
        if (changed) {
            for (int64_t k = start[p]; k < start[p + 1]; k++) {
                int32_t r = preds[k];
                if (!queued[r]) {
                    queued[r] = 1;
                    queue[tail] = r;
                    tail = (tail + 1) % size;
                    queued_count++;
                }
            }
        }
    }

    /* Values: forced where lo == hi; else the own row, kept within [lo, hi]. */
    int64_t undecided = 0;
    for (int64_t p = 0; p < size; p++) {
        int v = lo[p];
        if (lo[p] != hi[p]) {
            unrank(p, n, a);
            int own = 0;
            for (int i = 0; i < 6; i++) own += a[i];
            v = own < lo[p] ? lo[p] : own > hi[p] ? hi[p] : own;
            undecided++;
        }
        out[p] = (uint8_t)v;
        if (bounds) {
            bounds[2 * (layer_base[n] + p)] = (uint8_t)lo[p];
            bounds[2 * (layer_base[n] + p) + 1] = (uint8_t)hi[p];
        }
    }
    /* Moves: the forcing move where the value is forced (or is lo); elsewhere
     * the move whose result is best by the values. */
    for (int64_t p = 0; p < size; p++) {
        int v = out[p];
        int move = witness[p];
        if (!terminal[p] && lo[p] != hi[p] && v > lo[p]) {
            unrank(p, n, a);
            int count = moves_of(a, n, mv);
            int best = -1;
            for (int j = 0; j < count; j++) {
                int child = table[layer_base[mv[j].seeds] + mv[j].child] & 15;
                int got = through(&mv[j], child);
                if (got > best) {
                    best = got;
                    move = mv[j].move;
                }
            }
        }
        out[p] = (uint8_t)(v | (move << 4));
    }
    fprintf(stderr, "%d seeds: %lld positions, %lld undecided by force\n", n, (long long)size,
            (long long)undecided);
    free(lo);
    free(hi);
    free(exit_best);
    free(witness);
    free(nkids);
    free(kids);
    free(kidmove);
    free(terminal);
    free(start);
    free(preds);
    free(queue);
    free(queued);
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: %s MAX_SEEDS GRANDSLAM OUT [BOUNDS]\n", argv[0]);
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
    table = calloc(total, 1);
    if (argc == 5) bounds = calloc(2 * total, 1);
    for (int n = 0; n <= max_seeds; n++) solve_layer(n);
    FILE *f = fopen(argv[3], "wb");
    if (!f || fwrite(table, 1, total, f) != (size_t)total || fclose(f)) {
        fprintf(stderr, "cannot write %s\n", argv[3]);
        return 1;
    }
    if (bounds) {
        f = fopen(argv[4], "wb");
        if (!f || fwrite(bounds, 1, 2 * total, f) != (size_t)(2 * total) || fclose(f)) {
            fprintf(stderr, "cannot write %s\n", argv[4]);
            return 1;
        }
    }
    return 0;
}
