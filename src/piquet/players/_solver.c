/*
 * piquet._csolver: the compiled core of the double-dummy solver (piquet/solver.py).
 *
 * It runs exactly the search of solver.py's pure-Python fallback, in the same
 * order, so both give the same values (and, while the table here does not
 * overflow, the same node counts):
 *
 *   - values are in the elder's terms, A * (elder's points to come)
 *     - B * (younger's points to come): the elder maximises, the younger
 *     minimises;
 *   - Law 65: one point for each card led, one to the second player when he
 *     wins the trick, one more for the last trick; only the counting cards
 *     score for a lead or a trick won (Piquet au cent by agreement: tens and
 *     above, p. 19), the last trick's one more is always scored; Law 66: ten
 *     for the cards, forty for a capot; Laws 68-69: the elder's pique, thirty
 *     more, when his play points reach `need` before the younger scores in play;
 *   - fail-soft alpha-beta driven by zero-window tests (MTD(f));
 *   - a transposition table at trick boundaries, keyed on each suit's
 *     relative layout (which player holds each card still in play, lowest
 *     first) and how many of its cards in play do not count, the four suit
 *     codes sorted (suits are interchangeable: there are no trumps), the
 *     leader, the tricks won as far as the cards can tell them apart, and the
 *     pique still needed;
 *   - one card of each run of equivalent cards (adjacent among the cards of
 *     the suit still in play, held by the same player, on the same side of
 *     the line between the cards that count and those that do not);
 *   - move ordering: the table's best lead first, then sure winners, then the
 *     rest highest first; for the second player the cheapest winner first.
 *
 * The search holds the GIL and uses one static table, so it is not reentrant.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define ELDER 0
#define YOUNGER 1
#define INF 0x3fffffff

/* ------------------------------------------------------------------ tables */

/* For two disjoint bytes of ranks, indexed mine << 8 | theirs:
 *   rel_code: 1 << k for the suit's k cards in play, plus bit i set when
 *             `mine` holds the i-th lowest of them (solver.py's _REL);
 *   run_reps: bit r set when rank r is the lowest card of a run of `mine`
 *             that no card of `theirs` separates (solver.py's _REPS). */
static uint16_t rel_code[65536];
static uint8_t run_reps[65536];
/* select_rank[b][i]: the i-th lowest rank present in byte b. */
static uint8_t select_rank[256][8];
/* trick_class[t0][t1]: the tricks won as far as Law 66 can tell them apart. */
static uint8_t trick_class[13][13];

static void build_tables(void)
{
    for (int mine = 0; mine < 256; mine++) {
        for (int theirs = 0; theirs < 256; theirs++) {
            if (mine & theirs)
                continue;
            int both = mine | theirs, code = 0, k = 0, prev_mine = 0, reps = 0;
            for (int r = 0; r < 8; r++) {
                if (!(both >> r & 1))
                    continue;
                int held = mine >> r & 1;
                if (held) {
                    code |= 1 << k;
                    if (!prev_mine)
                        reps |= 1 << r;
                }
                prev_mine = held;
                k++;
            }
            rel_code[mine << 8 | theirs] = (uint16_t)(code | 1 << k);
            run_reps[mine << 8 | theirs] = (uint8_t)reps;
        }
    }
    for (int b = 0; b < 256; b++) {
        int i = 0;
        for (int r = 0; r < 8; r++)
            if (b >> r & 1)
                select_rank[b][i++] = (uint8_t)r;
    }
    for (int t0 = 0; t0 < 13; t0++) {
        for (int t1 = 0; t1 < 13; t1++) {
            int c0 = t0 < 7 ? t0 : 7, c1 = t1 < 7 ? t1 : 7;
            if (t0 >= 7 && t1)
                c1 = 1; /* the elder has the cards, and no capot is left */
            else if (t1 >= 7 && t0)
                c0 = 1;
            trick_class[t0][t1] = (uint8_t)(c0 | c1 << 3);
        }
    }
}

/* ------------------------------------------------------------------ the table */

/* Bounds on the value to come of a position at a trick boundary. */
typedef struct {
    uint64_t key;
    uint32_t gen;   /* the search that wrote it: older entries are stale */
    int32_t lo, hi; /* lower and upper bounds */
    uint16_t move;  /* best lead: suit code << 3 | rank among the suit's cards in play */
    uint8_t depth;  /* cards in each hand: the bigger the subtree, the more worth keeping */
} Entry;

#define BUCKET_BITS 16
#define WAYS 4
static Entry *table;
static uint32_t generation;

static int table_init(void)
{
    table = PyMem_Calloc((size_t)WAYS << BUCKET_BITS, sizeof(Entry));
    return table != NULL;
}

/* Start a new search: every entry written before is stale. */
static void new_generation(void)
{
    if (++generation == 0) {
        memset(table, 0, ((size_t)WAYS << BUCKET_BITS) * sizeof(Entry));
        generation = 1;
    }
}

static inline Entry *bucket_of(uint64_t key)
{
    return table + WAYS * (size_t)((key * 0x9E3779B97F4A7C15ULL) >> (64 - BUCKET_BITS));
}

static inline Entry *probe(uint64_t key)
{
    Entry *e = bucket_of(key);
    for (int i = 0; i < WAYS; i++)
        if (e[i].gen == generation && e[i].key == key)
            return e + i;
    return NULL;
}

/* The slot to write a new entry to: a stale one, else the shallowest. */
static inline Entry *victim(uint64_t key)
{
    Entry *e = bucket_of(key), *v = e;
    for (int i = 0; i < WAYS; i++) {
        if (e[i].gen != generation)
            return e + i;
        if (e[i].depth < v->depth)
            v = e + i;
    }
    return v;
}

/* ------------------------------------------------------------------ the search */

static int32_t A, B;      /* weights of the elder's and the younger's points */
static uint32_t counting; /* the cards that score when led or winning a trick */
static int cnt[4];        /* each suit's counting cards as a byte (from some rank up) */
static uint64_t nodes;    /* nodes visited by the current search */

#define COUNTS(c) ((int)(counting >> (c) & 1))

/* The lowest rank of each run of equivalent cards of `mine`, runs split at the counting line of suit s. */
static inline int reps_of(int mine, int theirs, int s)
{
    int c = cnt[s], n = 255 & ~c;
    return run_reps[(mine & n) << 8 | (theirs & n)] | run_reps[(mine & c) << 8 | (theirs & c)];
}

/* Play points to `role`, weighted; the elder's pique when he reaches *need (Laws 68-69). */
static inline int32_t score(int role, int pts, int *need)
{
    if (!pts)
        return 0;
    if (role == ELDER) {
        if (*need) {
            if (pts >= *need) {
                *need = 0;
                return (pts + 30) * A;
            }
            *need -= pts;
        }
        return pts * A;
    }
    *need = 0;
    return -pts * B;
}

/* Law 66 after the twelfth trick: the cards, ten, or forty for a capot. */
static inline int32_t cards_value(int t0, int t1)
{
    if (t1 == 0)
        return 40 * A;
    if (t0 == 0)
        return -40 * B;
    if (t0 > 6)
        return 10 * A;
    if (t1 > 6)
        return -10 * B;
    return 0;
}

static inline int highest_bit(uint32_t m) { return 31 - __builtin_clz(m); }

/* One lead per run of equivalent cards: sure winners (the top of a suit) in
 * suit order, then the rest highest rank first (suit order between equals).
 * Returns the number of moves. */
static int lead_order(uint32_t hl, uint32_t ho, int *moves)
{
    int n = 0, rest[4];
    for (int s = 0; s < 4; s++) {
        int mine = hl >> (8 * s) & 255, theirs = ho >> (8 * s) & 255;
        rest[s] = 0;
        if (!mine)
            continue;
        int reps = reps_of(mine, theirs, s);
        if (mine > theirs) { /* the top run holds the best card in play */
            int top = highest_bit((uint32_t)reps);
            moves[n++] = s * 8 + top;
            reps &= ~(1 << top);
        }
        rest[s] = reps;
    }
    for (int r = 7; r >= 0; r--)
        for (int s = 0; s < 4; s++)
            if (rest[s] >> r & 1)
                moves[n++] = s * 8 + r;
    return n;
}

/* One reply per run (Law 60: follow suit if able): following, the runs lowest
 * first with the cheapest winner moved to the front; discarding, the cards
 * below the top of their suits lowest first (suits in reverse order between
 * equal ranks), then the tops in suit order. */
static int reply_order(uint32_t hf, uint32_t hl, int lead, int *moves)
{
    int n = 0, s = lead >> 3;
    int mine = hf >> (8 * s) & 255;
    if (mine) {
        int theirs = (hl >> (8 * s) & 255) | 1 << (lead & 7);
        int reps = reps_of(mine, theirs, s);
        int above = reps & ~((2 << (lead & 7)) - 1);
        if (above) {
            int w = __builtin_ctz((unsigned)above);
            moves[n++] = s * 8 + w;
            reps &= ~(1 << w);
        }
        for (int r = 0; r < 8; r++)
            if (reps >> r & 1)
                moves[n++] = s * 8 + r;
        return n;
    }
    int low[4], high[4];
    for (int t = 0; t < 4; t++) {
        int m = hf >> (8 * t) & 255, th = hl >> (8 * t) & 255;
        low[t] = high[t] = 0;
        if (!m)
            continue;
        int reps = reps_of(m, th, t);
        if (m > th) {
            high[t] = 1 << highest_bit((uint32_t)reps);
            reps &= ~high[t];
        }
        low[t] = reps;
    }
    for (int r = 0; r < 8; r++)
        for (int t = 3; t >= 0; t--)
            if (low[t] >> r & 1)
                moves[n++] = t * 8 + r;
    for (int t = 0; t < 4; t++)
        if (high[t])
            moves[n++] = t * 8 + __builtin_ctz((unsigned)high[t]);
    return n;
}

static int32_t reply_node(uint32_t h0, uint32_t h1, int leader, int lead, int t0, int t1, int need,
                          int32_t alpha, int32_t beta, int only);

/* A trick boundary: the leader's choice, the lead's point included (Law 65). */
static int32_t lead_node(uint32_t h0, uint32_t h1, int leader, int t0, int t1, int need,
                         int32_t alpha, int32_t beta)
{
    nodes++;
    int n = __builtin_popcount(h0);
    if (n == 1) { /* the last trick plays itself */
        int cl = highest_bit(leader == ELDER ? h0 : h1), cf = highest_bit(leader == ELDER ? h1 : h0);
        int32_t v = score(leader, COUNTS(cl), &need);
        int winner = leader, pts = 1;
        if (cf >> 3 == cl >> 3 && cf > cl)
            winner = 1 - leader, pts = COUNTS(cf) + 1;
        v += score(winner, pts, &need);
        return v + cards_value(t0 + (winner == ELDER), t1 + (winner == YOUNGER));
    }
    if (need > n + 1) /* beyond the elder's reach: at most one a trick, two for the last */
        need = 0;

    uint16_t codes[4], s[4];
    uint32_t both = h0 | h1;
    for (int i = 0; i < 4; i++)
        s[i] = codes[i] = (uint16_t)(rel_code[(h0 >> (8 * i) & 255) << 8 | (h1 >> (8 * i) & 255)]
                                     | __builtin_popcount(both >> (8 * i) & 255 & ~cnt[i]) << 9);
    /* sort the four suit codes (a sorting network): suits are interchangeable */
#define SWAP(i, j) do { if (s[i] > s[j]) { uint16_t x = s[i]; s[i] = s[j]; s[j] = x; } } while (0)
    SWAP(0, 1); SWAP(2, 3); SWAP(0, 2); SWAP(1, 3); SWAP(1, 2);
#undef SWAP
    /* 13 bits a suit; need <= 13 here (4 bits) */
    uint64_t key = (uint64_t)s[0] | (uint64_t)s[1] << 13 | (uint64_t)s[2] << 26 | (uint64_t)s[3] << 39
                   | (uint64_t)leader << 52 | (uint64_t)trick_class[t0][t1] << 53 | (uint64_t)need << 59;

    Entry *e = probe(key);
    if (e) {
        if (e->lo >= beta)
            return e->lo;
        if (e->hi <= alpha)
            return e->hi;
    }
    int moves[12], nm;
    uint32_t hl = leader == ELDER ? h0 : h1, ho = leader == ELDER ? h1 : h0;
    nm = lead_order(hl, ho, moves);
    if (e) {
        /* the best lead found before: the card of that rank among the cards in
         * play of the first suit with that layout, moved to the front */
        int code = e->move >> 3, i = e->move & 7, su = 0;
        while (su < 3 && codes[su] != code)
            su++;
        int c = su * 8 + select_rank[both >> (8 * su) & 255][i];
        for (int j = 0; j < nm; j++) {
            if (moves[j] == c) {
                memmove(moves + 1, moves, (size_t)j * sizeof(int));
                moves[0] = c;
                break;
            }
        }
    }

    int32_t g, v;
    int best = moves[0];
    if (leader == ELDER) {
        int32_t a = alpha;
        g = -INF;
        for (int j = 0; j < nm; j++) {
            int c = moves[j], nd = need;
            int32_t pv = score(ELDER, COUNTS(c), &nd);
            v = pv + reply_node(h0 & ~(1u << c), h1, ELDER, c, t0, t1, nd, a - pv, beta - pv, -1);
            if (v > g) {
                g = v, best = c;
                if (g >= beta)
                    break;
                if (g > a)
                    a = g;
            }
        }
    } else {
        int32_t b = beta;
        g = INF;
        for (int j = 0; j < nm; j++) {
            int c = moves[j], nd = need;
            int32_t pv = score(YOUNGER, COUNTS(c), &nd);
            v = pv + reply_node(h0, h1 & ~(1u << c), YOUNGER, c, t0, t1, nd, alpha - pv, b - pv, -1);
            if (v < g) {
                g = v, best = c;
                if (g <= alpha)
                    break;
                if (g < b)
                    b = g;
            }
        }
    }

    int su = best >> 3;
    int below = (both >> (8 * su) & 255) & ((1 << (best & 7)) - 1);
    uint16_t move = (uint16_t)(codes[su] << 3 | __builtin_popcount((unsigned)below));
    if (!e) {
        e = victim(key);
        e->key = key, e->gen = generation, e->lo = -INF, e->hi = INF, e->depth = (uint8_t)n;
    }
    e->move = move;
    if (g <= alpha)
        e->hi = g;
    else if (g >= beta)
        e->lo = g;
    else
        e->lo = e->hi = g;
    return g;
}

/* The second player's choice (Law 60: follow suit if able), or the one card
 * `only` when it is >= 0.  Each card completes the trick: its points (Law 65),
 * then the next trick or, after the twelfth, the cards (Law 66). */
static int32_t reply_node(uint32_t h0, uint32_t h1, int leader, int lead, int t0, int t1, int need,
                          int32_t alpha, int32_t beta, int only)
{
    nodes++;
    int follower = 1 - leader, moves[12], nm = 1;
    uint32_t hf = follower == ELDER ? h0 : h1, hl = follower == ELDER ? h1 : h0;
    int last = (hf & (hf - 1)) == 0, maximise = follower == ELDER;
    if (only >= 0)
        moves[0] = only;
    else
        nm = reply_order(hf, hl, lead, moves);
    int32_t g = maximise ? -INF : INF, v;
    for (int j = 0; j < nm; j++) {
        int c = moves[j], nd = need, winner, pts, n0 = t0, n1 = t1;
        if (c >> 3 == lead >> 3 && c > lead) /* the second player wins the trick */
            winner = follower, pts = COUNTS(c) + last;
        else
            winner = leader, pts = last;
        v = pts ? score(winner, pts, &nd) : 0;
        if (winner == ELDER)
            n0++;
        else
            n1++;
        if (last)
            v += cards_value(n0, n1);
        else if (maximise)
            v += lead_node(h0 & ~(1u << c), h1, winner, n0, n1, nd, alpha - v, beta - v);
        else
            v += lead_node(h0, h1 & ~(1u << c), winner, n0, n1, nd, alpha - v, beta - v);
        if (maximise) {
            if (v > g) {
                g = v;
                if (g >= beta)
                    break;
                if (g > alpha)
                    alpha = g;
            }
        } else if (v < g) {
            g = v;
            if (g <= alpha)
                break;
            if (g < beta)
                beta = g;
        }
    }
    return g;
}

/* ------------------------------------------------------------------ the drivers */

/* A position as solver.py passes it, already checked by Position. */
typedef struct {
    uint32_t h0, h1;
    int leader, lead, t0, t1, need;
} State;

/* The value of playing card c now (c < 0: of the position itself), for a window. */
static int32_t test(const State *p, int c, int32_t alpha, int32_t beta)
{
    if (p->lead >= 0)
        return reply_node(p->h0, p->h1, p->leader, p->lead, p->t0, p->t1, p->need, alpha, beta, c);
    if (c < 0)
        return lead_node(p->h0, p->h1, p->leader, p->t0, p->t1, p->need, alpha, beta);
    uint32_t h0 = p->h0, h1 = p->h1;
    if (p->leader == ELDER)
        h0 &= ~(1u << c);
    else
        h1 &= ~(1u << c);
    int nd = p->need;
    int32_t pv = score(p->leader, COUNTS(c), &nd);
    return pv + reply_node(h0, h1, p->leader, c, p->t0, p->t1, nd, alpha - pv, beta - pv, -1);
}

/* MTD(f): zero-window tests around a guess until the bounds meet. */
static int32_t mtd(const State *p, int c, int32_t guess)
{
    int32_t lower = -INF, upper = INF, g = guess;
    while (lower < upper) {
        int32_t beta = g == lower ? g + 1 : g;
        g = test(p, c, beta - 1, beta);
        if (g < beta)
            upper = g;
        else
            lower = g;
    }
    return g;
}

static int parse_state(PyObject *args, State *p)
{
    unsigned long h0, h1, count;
    if (!PyArg_ParseTuple(args, "kkiiiiiiik", &h0, &h1, &p->leader, &p->lead, &p->t0, &p->t1, &p->need, &A, &B,
                          &count))
        return 0;
    p->h0 = (uint32_t)h0, p->h1 = (uint32_t)h1;
    counting = (uint32_t)count;
    for (int s = 0; s < 4; s++)
        cnt[s] = counting >> (8 * s) & 255;
    nodes = 0;
    new_generation();
    return 1;
}

PyDoc_STRVAR(solve_doc,
"solve(h0, h1, leader, lead, t0, t1, need, a, b, counting) -> (value, nodes)\n\n"
"The best-play value to come, a * elder's points - b * younger's, and the nodes searched;\n"
"`counting` holds the cards that score when led or winning a trick (in each suit, from some rank up).");

static PyObject *solve(PyObject *self, PyObject *args)
{
    (void)self;
    State p;
    if (!parse_state(args, &p))
        return NULL;
    int32_t v = mtd(&p, -1, 0);
    return Py_BuildValue("(iK)", (int)v, (unsigned long long)nodes);
}

PyDoc_STRVAR(children_doc,
"children(h0, h1, leader, lead, t0, t1, need, a, b, counting) -> ([(card, value), ...], nodes)\n\n"
"The value of one card of each run the player to play may play, sharing one table.");

static PyObject *children(PyObject *self, PyObject *args)
{
    (void)self;
    State p;
    if (!parse_state(args, &p))
        return NULL;
    int moves[12], nm, role = p.lead < 0 ? p.leader : 1 - p.leader;
    uint32_t mine = role == ELDER ? p.h0 : p.h1, theirs = role == ELDER ? p.h1 : p.h0;
    nm = p.lead < 0 ? lead_order(mine, theirs, moves) : reply_order(mine, theirs, p.lead, moves);
    PyObject *list = PyList_New(nm);
    if (!list)
        return NULL;
    int32_t guess = 0;
    for (int j = 0; j < nm; j++) {
        guess = mtd(&p, moves[j], guess);
        PyObject *pair = Py_BuildValue("(ii)", moves[j], (int)guess);
        if (!pair) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, j, pair);
    }
    return Py_BuildValue("(NK)", list, (unsigned long long)nodes);
}

static PyMethodDef methods[] = {
    {"solve", solve, METH_VARARGS, solve_doc},
    {"children", children, METH_VARARGS, children_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "piquet._csolver",
    "The compiled core of piquet.solver: double-dummy search of the play (Laws 65-66, 68-69).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__csolver(void)
{
    build_tables();
    if (!table && !table_init())
        return PyErr_NoMemory();
    PyObject *m = PyModule_Create(&module);
    /* ABI 2: the drivers take the counting cards (solver.py checks it, so a stale build is never misused) */
    if (m && PyModule_AddIntConstant(m, "ABI", 2) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
