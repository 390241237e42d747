/*
 * Optional compiled copies of shared.variants.freecell.boards.BoardMoves.children()
 * and boards.score(): the same children in the same order, and the same scores, as
 * the Python reference (the fallback, tested against this), so that a search runs
 * the same way with either. setup() takes tables.BUILD (no rule is written twice),
 * the module's one piece of state. A board (boards.State) is one bytes object; a
 * child is made as nine slices (of the parent, or of a small buffer for the column
 * that grew and the free cells), put in order again when a column emptied or
 * filled, and copied out into one new bytes object.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define NONE 63          /* a card code no card has: "no such card" */
#define MAX_COLUMN 64    /* longer columns are refused (a deck has 52 cards) */
#define SEP 255          /* ends each column of a board (boards.SEP) */
#define MAX_CHILDREN 512 /* more than a real board has (a few dozen); more is refused */

static unsigned char build[64 * 64]; /* build[lo * 64 + up]: up may lie on lo */
static unsigned char onto_first[64], onto_second[64]; /* the two cards a card builds on */
static int ready = 0;

/* A part of a board: a column, or the free cells. */
typedef struct {
    const unsigned char *at;
    Py_ssize_t n;
} Part;

/* One board being made: its nine parts, and room for the parts that are new. */
typedef struct {
    Part part[9];
    unsigned char grown[2 * MAX_COLUMN]; /* the column cards went onto */
    unsigned char cells[8];              /* the free cells, when they changed */
} Board;

/* The children found so far (new references). */
typedef struct {
    PyObject *item[MAX_CHILDREN];
    Py_ssize_t n;
} Children;

static void children_release(Children *out)
{
    for (Py_ssize_t k = 0; k < out->n; k++) {
        Py_DECREF(out->item[k]);
    }
    out->n = 0;
}

/* ``onto`` with ``n`` cards from ``cards`` on top (into b->grown). */
static void board_grow(Board *b, int onto, const unsigned char *cards, Py_ssize_t n)
{
    Part *part = &b->part[onto];
    memcpy(b->grown, part->at, (size_t)part->n);
    memcpy(b->grown + part->n, cards, (size_t)n);
    part->at = b->grown;
    part->n += n;
}

/* The free cells without the one at ``k``. */
static void board_cells_without(Board *b, Py_ssize_t k)
{
    Part *part = &b->part[8];
    memcpy(b->cells, part->at, (size_t)k);
    memcpy(b->cells + k, part->at + k + 1, (size_t)(part->n - k - 1));
    part->at = b->cells;
    part->n -= 1;
}

/* The free cells with ``card`` added, sorted. */
static void board_cells_with(Board *b, unsigned char card)
{
    Part *part = &b->part[8];
    Py_ssize_t m = part->n;
    memcpy(b->cells, part->at, (size_t)m);
    for (; m > 0 && b->cells[m - 1] > card; m--) {
        b->cells[m] = b->cells[m - 1];
    }
    b->cells[m] = card;
    part->at = b->cells;
    part->n += 1;
}

/* The columns in canonical order again (empty first, then by bottom card). */
#define KEY(part) ((part).n ? (part).at[0] : -1)
static void board_sort(Board *b)
{
    for (int k = 1; k < 8; k++) {
        Part item = b->part[k];
        int m = k - 1;
        for (; m >= 0 && KEY(b->part[m]) > KEY(item); m--) {
            b->part[m + 1] = b->part[m];
        }
        b->part[m + 1] = item;
    }
}

/* The board as one bytes object, added to ``out``; -1 on error. */
static int board_add(const Board *b, Children *out)
{
    Py_ssize_t size = 8;
    for (int k = 0; k < 9; k++) {
        size += b->part[k].n;
    }
    if (out->n >= MAX_CHILDREN) {
        PyErr_SetString(PyExc_RuntimeError, "more children than a board can have");
        return -1;
    }
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, size);
    if (bytes == NULL) {
        return -1;
    }
    unsigned char *at = (unsigned char *)PyBytes_AS_STRING(bytes);
    for (int k = 0; k < 8; k++) {
        memcpy(at, b->part[k].at, (size_t)b->part[k].n);
        at += b->part[k].n;
        *at++ = SEP;
    }
    memcpy(at, b->part[8].at, (size_t)b->part[8].n);
    out->item[out->n++] = bytes;
    return 0;
}

#define COL(i) (parts[i].at)
#define LEN(i) (parts[i].n)
#define TRY(x) do { if ((x) < 0) return -1; } while (0)
#define FROM_PARENT(b) memcpy((b).part, parts, sizeof (b).part)

/* The top ``m`` cards of column ``i`` onto column ``onto`` (none when ``onto`` < 0). */
static int add_onto(const Part *parts, int i, Py_ssize_t m, int onto, Children *out)
{
    if (onto < 0) {
        return 0;
    }
    Board b;
    FROM_PARENT(b);
    b.part[i].n -= m;
    board_grow(&b, onto, parts[i].at + b.part[i].n, m);
    if (b.part[i].n == 0) {
        board_sort(&b);
    }
    return board_add(&b, out);
}

/* The free cells' card at ``k`` onto column ``onto`` (none when ``onto`` < 0). */
static int add_from_cell(const Part *parts, Py_ssize_t k, int onto, Children *out)
{
    if (onto < 0) {
        return 0;
    }
    Board b;
    FROM_PARENT(b);
    board_grow(&b, onto, parts[8].at + k, 1);
    board_cells_without(&b, k);
    return board_add(&b, out);
}

/* How many of the column's top cards form a build (at least 1). */
static Py_ssize_t run_length(const unsigned char *col, Py_ssize_t n)
{
    Py_ssize_t length = 1;
    while (length < n && build[col[n - length - 1] * 64 + col[n - length]]) {
        length++;
    }
    return length;
}

/* The children of the board ``parts`` added to ``out``: 1, or 0 when a move uncovers
 * a wanted card, -1 on error. */
static int list_children(const Part *parts, const unsigned char *wanted, Children *out)
{
    const unsigned char *cells = COL(8);
    Py_ssize_t n_cells = LEN(8);
    int free = 4 - (int)n_cells;
    int n_empty = 0;
    while (n_empty < 8 && LEN(n_empty) == 0) {
        n_empty++;
    }
    long limit = (long)(free + 1) << n_empty;
    long to_empty = n_empty ? (long)(free + 1) << (n_empty - 1) : 0;
    signed char where[64];
    memset(where, -1, sizeof where);
    for (int j = n_empty; j < 8; j++) {
        where[COL(j)[LEN(j) - 1]] = (signed char)j;
    }
    Board b;
    for (Py_ssize_t k = 0; k < n_cells; k++) {
        unsigned char card = cells[k];
        int a = where[onto_first[card]], c = where[onto_second[card]];
        if (a < 0 && c < 0 && !n_empty) {
            continue;
        }
        TRY(add_from_cell(parts, k, a, out));
        TRY(add_from_cell(parts, k, c, out));
        if (n_empty) {
            FROM_PARENT(b);
            b.part[0].at = cells + k;
            b.part[0].n = 1;
            board_sort(&b);
            board_cells_without(&b, k);
            TRY(board_add(&b, out));
        }
    }
    for (int i = n_empty; i < 8; i++) {
        const unsigned char *col = COL(i);
        Py_ssize_t n = LEN(i);
        unsigned char top = col[n - 1];
        Py_ssize_t length = run_length(col, n);
        int a = where[onto_first[top]], c = where[onto_second[top]];
        if (a >= 0 || c >= 0) {
            if (n > 1 && wanted[col[n - 2]]) {
                return 0;
            }
            TRY(add_onto(parts, i, 1, a, out));
            TRY(add_onto(parts, i, 1, c, out));
        }
        if (limit == 1) {
            continue;
        }
        /* builds of two cards or more, within the move limit */
        for (Py_ssize_t m = 2; m <= length && m <= limit; m++) {
            unsigned char bottom = col[n - m];
            int ma = where[onto_first[bottom]], mc = where[onto_second[bottom]];
            if (ma < 0 && mc < 0) {
                continue;
            }
            if (n > m && wanted[col[n - m - 1]]) {
                return 0;
            }
            TRY(add_onto(parts, i, m, ma, out));
            TRY(add_onto(parts, i, m, mc, out));
        }
        if (to_empty) {
            /* at most the limit to an empty column, and never the whole column */
            Py_ssize_t most = length < to_empty ? length : (Py_ssize_t)to_empty;
            if (most == n) {
                most--;
            }
            for (Py_ssize_t m = 1; m <= most; m++) {
                if (wanted[col[n - m - 1]]) {
                    return 0;
                }
                FROM_PARENT(b);
                b.part[i].n = n - m;
                b.part[0].at = col + n - m;
                b.part[0].n = m;
                board_sort(&b);
                TRY(board_add(&b, out));
            }
        }
        if (free) {
            /* the top card into a free cell */
            if (n > 1 && wanted[col[n - 2]]) {
                return 0;
            }
            FROM_PARENT(b);
            b.part[i].n = n - 1;
            board_cells_with(&b, top);
            if (n == 1) {
                board_sort(&b);
            }
            TRY(board_add(&b, out));
        }
    }
    return 1;
}

static int refuse(const char *why)
{
    PyErr_SetString(PyExc_ValueError, why);
    return -1;
}

/* Split ``board`` into its parts, checking that this module can read it without
 * going astray; -1 (an exception set) when it cannot. */
static int parse_board(PyObject *board, Part *parts)
{
    if (!PyBytes_CheckExact(board)) {
        PyErr_SetString(PyExc_TypeError, "a board is a bytes object");
        return -1;
    }
    const unsigned char *at = (const unsigned char *)PyBytes_AS_STRING(board);
    Py_ssize_t size = PyBytes_GET_SIZE(board);
    int k = 0, cards_seen = 0;
    Py_ssize_t start = 0;
    for (Py_ssize_t m = 0; m < size; m++) {
        unsigned char card = at[m];
        if (card == SEP) {
            if (k == 8) {
                return refuse("a board has eight columns");
            }
            parts[k].at = at + start;
            parts[k].n = m - start;
            if (parts[k].n > MAX_COLUMN) {
                return refuse("too many cards in a column");
            }
            if (parts[k].n) {
                cards_seen = 1;
            } else if (cards_seen) {
                return refuse("the columns are not in canonical order");
            }
            k++;
            start = m + 1;
        } else if (card >= NONE) {
            return refuse("not a card code");
        }
    }
    if (k != 8) {
        return refuse("a board has eight columns");
    }
    parts[8].at = at + start;
    parts[8].n = size - start;
    if (parts[8].n > 4) {
        return refuse("too many cards in the free cells");
    }
    return 0;
}

static PyObject *children(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "setup(BUILD) was not called");
        return NULL;
    }
    if (nargs != 2 || !PyBytes_CheckExact(args[1]) || PyBytes_GET_SIZE(args[1]) < 64) {
        PyErr_SetString(PyExc_TypeError, "children(board, wanted): wanted is bytes of 64");
        return NULL;
    }
    PyObject *wanted_table = args[1];
    Part parts[9];
    if (parse_board(args[0], parts) < 0) {
        return NULL;
    }
    const unsigned char *wanted = (const unsigned char *)PyBytes_AS_STRING(wanted_table);
    Children out;
    out.n = 0;
    int found = list_children(parts, wanted, &out);
    if (found <= 0) {
        children_release(&out);
        if (found < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    PyObject *tuple = PyTuple_New(out.n);
    if (tuple == NULL) {
        children_release(&out);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < out.n; k++) {
        PyTuple_SET_ITEM(tuple, k, out.item[k]); /* (the tuple takes the reference) */
    }
    return tuple;
}

/* boards.score: the shallowest wanted card's depth in a column (99: none), plus the
 * full free cells, less twice the empty columns. Reads any bytes safely. */
static PyObject *score(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyBytes_CheckExact(args[0]) || !PyBytes_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "score(board, cards) takes two bytes objects");
        return NULL;
    }
    const unsigned char *board = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    Py_ssize_t size = PyBytes_GET_SIZE(args[0]);
    const unsigned char *cards = (const unsigned char *)PyBytes_AS_STRING(args[1]);
    Py_ssize_t n_cards = PyBytes_GET_SIZE(args[1]);
    const unsigned char *end = board + size;
    long shallowest = 99;
    for (Py_ssize_t k = 0; k < n_cards; k++) {
        const unsigned char *at = memchr(board, cards[k], (size_t)size);
        const unsigned char *sep = at ? memchr(at, SEP, (size_t)(end - at)) : NULL;
        if (sep != NULL && sep - at - 1 < shallowest) {
            shallowest = (long)(sep - at - 1);
        }
    }
    const unsigned char *last = end; /* (with no separator, all is cells, as in rfind) */
    for (; last > board && last[-1] != SEP; last--) {
    }
    long out = shallowest + (long)(end - last);
    if (size && board[0] == SEP) {
        long empty = 1;
        while (empty < 8 && empty < size && board[empty] == SEP) {
            empty++;
        }
        out -= 2 * empty;
    }
    return PyLong_FromLong(out);
}

static PyObject *setup(PyObject *module, PyObject *table)
{
    (void)module;
    if (!PyBytes_CheckExact(table) || PyBytes_GET_SIZE(table) != 64 * 64) {
        PyErr_SetString(PyExc_TypeError, "setup() takes tables.BUILD (bytes of 4096)");
        return NULL;
    }
    memcpy(build, PyBytes_AS_STRING(table), sizeof build);
    unsigned char takes[64]; /* how many cards may lie on each: two in Freecell */
    for (int card = 0; card < 64; card++) {
        onto_first[card] = onto_second[card] = NONE;
        takes[card] = 0;
    }
    /* (codes of no card, ranks 14 and 15, may have entries: they lie in no column) */
    for (int lo = 0; lo < NONE; lo++) {
        for (int up = 0; up < NONE; up++) {
            if (!build[lo * 64 + up]) {
                continue;
            }
            if (++takes[lo] > 2) {
                ready = 0;
                PyErr_SetString(PyExc_ValueError, "not Freecell's build table");
                return NULL;
            }
            if (onto_first[up] == NONE) {
                onto_first[up] = (unsigned char)lo; /* the lowest */
            }
            onto_second[up] = (unsigned char)lo;    /* the highest */
        }
    }
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"children", (PyCFunction)(void (*)(void))children, METH_FASTCALL,
     "children(board, wanted): BoardMoves.children, compiled."},
    {"score", (PyCFunction)(void (*)(void))score, METH_FASTCALL,
     "score(board, cards): boards.score, compiled."},
    {"setup", setup, METH_O, "setup(BUILD): take Freecell's build table."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "shared.variants.freecell._children",
    "Optional compiled BoardMoves.children and boards.score (see boards.py).",
    -1,
    methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__children(void)
{
    return PyModule_Create(&module_def);
}
