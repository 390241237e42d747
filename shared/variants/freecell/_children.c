/*
 * Optional compiled speed-up of shared.variants.freecell.boards.BoardMoves.children().
 *
 * Freecell's stuck check spends about a third of a random game's time
 * listing the children of canonical boards. This is the same function in C:
 * the same children, in the same order, for the same boards, so that a
 * search runs exactly the same way whichever is used. The Python version in
 * boards.py stays the reference and the fallback (on a machine without a C
 * compiler, or for a search made with native=False); the tests compare the
 * two on many boards.
 *
 * The rules come from Python: setup() takes tables.BUILD, the table of
 * which card may lie on which, so that no rule is written twice. It is the
 * module's one piece of state, filled once as the module is imported.
 *
 * A board (boards.State) is a tuple of nine bytes objects: the
 * eight columns in canonical order (empty ones first, then by bottom card),
 * bottom to top, then the free cells' cards sorted. Cards are codes below 64.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define NONE 63          /* a card code no card has: "no such card" */
#define MAX_COLUMN 64    /* longer columns are refused (a deck has 52 cards) */

static unsigned char build[64 * 64]; /* build[lo * 64 + up]: up may lie on lo */
static unsigned char onto_first[64], onto_second[64]; /* the two cards a card builds on */
static int ready = 0;

/* One board being made: nine items, each borrowed from the parent or owned. */
typedef struct {
    PyObject *item[9];
    int owned[9];
} Board;

static void board_from(Board *b, PyObject *const *parent)
{
    for (int k = 0; k < 9; k++) {
        b->item[k] = parent[k];
        b->owned[k] = 0;
    }
}

static void board_release(Board *b)
{
    for (int k = 0; k < 9; k++) {
        if (b->owned[k]) {
            Py_DECREF(b->item[k]);
            b->owned[k] = 0;
        }
    }
}

/* Put ``value`` (a new reference, or NULL after an error) at ``k``; -1 on error. */
static int board_set(Board *b, int k, PyObject *value)
{
    if (value == NULL) {
        return -1;
    }
    if (b->owned[k]) {
        Py_DECREF(b->item[k]);
    }
    b->item[k] = value;
    b->owned[k] = 1;
    return 0;
}

/* The columns in canonical order again (empty first, then by bottom card). */
static void board_sort(Board *b)
{
    for (int k = 1; k < 8; k++) {
        PyObject *item = b->item[k];
        int owned = b->owned[k];
        Py_ssize_t len = PyBytes_GET_SIZE(item);
        int key = len ? ((unsigned char *)PyBytes_AS_STRING(item))[0] : -1;
        int m = k - 1;
        while (m >= 0) {
            PyObject *other = b->item[m];
            int other_key = PyBytes_GET_SIZE(other)
                ? ((unsigned char *)PyBytes_AS_STRING(other))[0] : -1;
            if (other_key <= key) {
                break;
            }
            b->item[m + 1] = other;
            b->owned[m + 1] = b->owned[m];
            m--;
        }
        b->item[m + 1] = item;
        b->owned[m + 1] = owned;
    }
}

/* Append the board to ``out`` as a tuple and release it; -1 on error. */
static int board_add(Board *b, PyObject *out)
{
    PyObject *tuple = PyTuple_New(9);
    if (tuple == NULL) {
        board_release(b);
        return -1;
    }
    for (int k = 0; k < 9; k++) {
        if (!b->owned[k]) {
            Py_INCREF(b->item[k]);
        }
        PyTuple_SET_ITEM(tuple, k, b->item[k]);
        b->owned[k] = 0;
    }
    int failed = PyList_Append(out, tuple);
    Py_DECREF(tuple);
    return failed;
}

static PyObject *concat(const unsigned char *a, Py_ssize_t na,
                        const unsigned char *c, Py_ssize_t nc)
{
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, na + nc);
    if (bytes != NULL) {
        char *at = PyBytes_AS_STRING(bytes);
        memcpy(at, a, (size_t)na);
        memcpy(at + na, c, (size_t)nc);
    }
    return bytes;
}

static PyObject *prefix(const unsigned char *a, Py_ssize_t n)
{
    return PyBytes_FromStringAndSize((const char *)a, n);
}

/* The free cells without the one at ``k``. */
static PyObject *cells_without(const unsigned char *cells, Py_ssize_t n, Py_ssize_t k)
{
    return concat(cells, k, cells + k + 1, n - k - 1);
}

/* The free cells with ``card`` added, sorted. */
static PyObject *cells_with(const unsigned char *cells, Py_ssize_t n, unsigned char card)
{
    unsigned char buf[8];
    Py_ssize_t m = 0;
    int placed = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (!placed && card < cells[k]) {
            buf[m++] = card;
            placed = 1;
        }
        buf[m++] = cells[k];
    }
    if (!placed) {
        buf[m++] = card;
    }
    return prefix(buf, m);
}

#define COL(i) ((const unsigned char *)PyBytes_AS_STRING(items[i]))
#define LEN(i) (PyBytes_GET_SIZE(items[i]))
#define TRY(x) do { if ((x) < 0) goto error; } while (0)

/* How many of the column's top cards form a build (at least 1). */
static Py_ssize_t run_length(const unsigned char *col, Py_ssize_t n)
{
    Py_ssize_t length = 1;
    while (length < n && build[col[n - length - 1] * 64 + col[n - length]]) {
        length++;
    }
    return length;
}

/* The children of the board ``items`` appended to ``out``; None (and ``out``
 * released) when a move uncovers a wanted card; NULL on error. */
static PyObject *list_children(PyObject *const *items, const unsigned char *wanted, PyObject *out)
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
        int targets[2] = {a, c};
        for (int t = 0; t < 2; t++) {
            int onto = targets[t];
            if (onto < 0) {
                continue;
            }
            board_from(&b, items);
            TRY(board_set(&b, onto, concat(COL(onto), LEN(onto), &card, 1)));
            TRY(board_set(&b, 8, cells_without(cells, n_cells, k)));
            TRY(board_add(&b, out));
        }
        if (n_empty) {
            board_from(&b, items);
            TRY(board_set(&b, 0, prefix(&card, 1)));
            board_sort(&b);
            TRY(board_set(&b, 8, cells_without(cells, n_cells, k)));
            TRY(board_add(&b, out));
        }
    }
    for (int i = n_empty; i < 8; i++) {
        const unsigned char *col = COL(i);
        Py_ssize_t n = LEN(i);
        unsigned char top = col[n - 1];
        Py_ssize_t length = run_length(col, n);
        int a = where[onto_first[top]], c = where[onto_second[top]];
        int targets[2] = {a, c};
        if (a >= 0 || c >= 0) {
            if (n > 1 && wanted[col[n - 2]]) {
                Py_DECREF(out);
                Py_RETURN_NONE;
            }
            for (int t = 0; t < 2; t++) {
                int onto = targets[t];
                if (onto < 0) {
                    continue;
                }
                board_from(&b, items);
                TRY(board_set(&b, i, prefix(col, n - 1)));
                TRY(board_set(&b, onto, concat(COL(onto), LEN(onto), col + n - 1, 1)));
                if (n == 1) {
                    board_sort(&b);
                }
                TRY(board_add(&b, out));
            }
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
                Py_DECREF(out);
                Py_RETURN_NONE;
            }
            int mtargets[2] = {ma, mc};
            for (int t = 0; t < 2; t++) {
                int onto = mtargets[t];
                if (onto < 0) {
                    continue;
                }
                board_from(&b, items);
                TRY(board_set(&b, i, prefix(col, n - m)));
                TRY(board_set(&b, onto, concat(COL(onto), LEN(onto), col + n - m, m)));
                if (n == m) {
                    board_sort(&b);
                }
                TRY(board_add(&b, out));
            }
        }
        if (to_empty) {
            /* at most the limit to an empty column, and never the whole column */
            Py_ssize_t most = length < to_empty ? length : (Py_ssize_t)to_empty;
            if (most == n) {
                most--;
            }
            for (Py_ssize_t m = 1; m <= most; m++) {
                if (wanted[col[n - m - 1]]) {
                    Py_DECREF(out);
                    Py_RETURN_NONE;
                }
                board_from(&b, items);
                TRY(board_set(&b, i, prefix(col, n - m)));
                TRY(board_set(&b, 0, prefix(col + n - m, m)));
                board_sort(&b);
                TRY(board_add(&b, out));
            }
        }
        if (free) {
            /* the top card into a free cell */
            if (n > 1 && wanted[col[n - 2]]) {
                Py_DECREF(out);
                Py_RETURN_NONE;
            }
            board_from(&b, items);
            TRY(board_set(&b, i, prefix(col, n - 1)));
            TRY(board_set(&b, 8, cells_with(cells, n_cells, top)));
            if (n == 1) {
                board_sort(&b);
            }
            TRY(board_add(&b, out));
        }
    }
    return out;
error:
    board_release(&b);
    Py_DECREF(out);
    return NULL;
}

/* Check that ``state`` is a board this module can read without going astray. */
static int check_state(PyObject *state, PyObject *wanted)
{
    if (!PyTuple_CheckExact(state) || PyTuple_GET_SIZE(state) != 9) {
        PyErr_SetString(PyExc_TypeError, "a board is a tuple of nine bytes objects");
        return -1;
    }
    if (!PyBytes_CheckExact(wanted) || PyBytes_GET_SIZE(wanted) < 64) {
        PyErr_SetString(PyExc_TypeError, "wanted is a bytes table of 64 entries");
        return -1;
    }
    int empty_seen_after_cards = 0, cards_seen = 0;
    for (int k = 0; k < 9; k++) {
        PyObject *item = PyTuple_GET_ITEM(state, k);
        if (!PyBytes_CheckExact(item)) {
            PyErr_SetString(PyExc_TypeError, "a board is a tuple of nine bytes objects");
            return -1;
        }
        Py_ssize_t n = PyBytes_GET_SIZE(item);
        if (n > (k == 8 ? 4 : MAX_COLUMN)) {
            PyErr_SetString(PyExc_ValueError, "too many cards in a column or the free cells");
            return -1;
        }
        const unsigned char *cards = (const unsigned char *)PyBytes_AS_STRING(item);
        for (Py_ssize_t m = 0; m < n; m++) {
            if (cards[m] >= NONE) {
                PyErr_SetString(PyExc_ValueError, "not a card code");
                return -1;
            }
        }
        if (k < 8) {
            if (n) {
                cards_seen = 1;
            } else if (cards_seen) {
                empty_seen_after_cards = 1;
            }
        }
    }
    if (empty_seen_after_cards) {
        PyErr_SetString(PyExc_ValueError, "the columns are not in canonical order");
        return -1;
    }
    return 0;
}

static PyObject *children(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "children(state, wanted) takes two arguments");
        return NULL;
    }
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "setup(BUILD) was not called");
        return NULL;
    }
    PyObject *state = args[0];
    if (check_state(state, args[1]) < 0) {
        return NULL;
    }
    const unsigned char *wanted = (const unsigned char *)PyBytes_AS_STRING(args[1]);
    PyObject *const *items = &PyTuple_GET_ITEM(state, 0);
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    PyObject *found = list_children(items, wanted, out);
    if (found == NULL || found == Py_None) {
        return found; /* (out was released) */
    }
    PyObject *tuple = PyList_AsTuple(out);
    Py_DECREF(out);
    return tuple;
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
     "children(state, wanted): BoardMoves.children, compiled."},
    {"setup", setup, METH_O, "setup(BUILD): take Freecell's build table."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "shared.variants.freecell._children",
    "Optional compiled BoardMoves.children (see boards.py).",
    -1,
    methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__children(void)
{
    return PyModule_Create(&module_def);
}
