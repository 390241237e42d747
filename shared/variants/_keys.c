/*
 * Optional compiled speed-up of shared.variants.keys.PositionKey.of(): a position's
 * canonical key.
 *
 * The generic stuck search (shared.stuck.generic, shared.stuck.unseen) and the
 * solver's search on engine positions make a key for every position they meet,
 * and in the compiled build that was a third of Westhaven's time: a bytes object
 * per pile, their concatenations, a sort and a join. This is the same function
 * in C: the very same bytes for the same position, so that a search counts the
 * same positions whichever is used. The Python version in keys.py stays the
 * reference and the fallback (on a machine without a C compiler, and in the pure
 * build); the tests compare the two on many positions of every variant.
 *
 * key(piles, down, redeals, fixed, groups): ``piles`` a list of lists of card
 * codes, ``down`` a list of face-down counts, ``redeals`` an int, ``fixed`` a
 * list of pile indices written in order, ``groups`` a list of lists of pile
 * indices whose piles are written sorted. Each pile is written as its card codes
 * (bytes, 0-255 as bytes() takes them) followed by its end: 64 + its face-down
 * count when that is at most 190, else 255 and the count in four bytes, little
 * endian; the key starts with the end of ``redeals``. The piles of a group are
 * sorted as those byte strings (as Python sorts bytes). Bad input raises
 * TypeError, ValueError, IndexError or OverflowError; nothing is read past.
 *
 * The module keeps no state.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define SHORT_COUNT 190
#define MAX_GROUP 64 /* piles in one group at most (the notation names 24) */

typedef struct {
    unsigned char *buf;
    Py_ssize_t len, cap;
    unsigned char local[512];
} Out;

static void out_init(Out *o)
{
    o->buf = o->local;
    o->len = 0;
    o->cap = (Py_ssize_t)sizeof(o->local);
}

static void out_free(Out *o)
{
    if (o->buf != o->local) {
        PyMem_Free(o->buf);
    }
}

static int out_reserve(Out *o, Py_ssize_t extra)
{
    if (o->len + extra <= o->cap) {
        return 0;
    }
    Py_ssize_t cap = o->cap * 2;
    while (cap < o->len + extra) {
        cap *= 2;
    }
    unsigned char *buf = PyMem_Malloc((size_t)cap);
    if (buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(buf, o->buf, (size_t)o->len);
    out_free(o);
    o->buf = buf;
    o->cap = cap;
    return 0;
}

/* The end of a pile (or the redeals): see the top of the file. */
static int put_count(Out *o, PyObject *value)
{
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "a count must be an int");
        return -1;
    }
    long long n = PyLong_AsLongLong(value);
    if (n == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "a count cannot be negative");
        return -1;
    }
    if (out_reserve(o, 5) < 0) {
        return -1;
    }
    if (n <= SHORT_COUNT) {
        o->buf[o->len++] = (unsigned char)(64 + n);
        return 0;
    }
    if (n > 0xFFFFFFFFLL) {
        PyErr_SetString(PyExc_OverflowError, "a count must fit in four bytes");
        return -1;
    }
    o->buf[o->len++] = 255;
    for (int k = 0; k < 4; k++) {
        o->buf[o->len++] = (unsigned char)((n >> (8 * k)) & 0xFF);
    }
    return 0;
}

/* Pile ``i`` of ``piles``: its cards, then the end of down[i]. */
static int put_pile(Out *o, PyObject *piles, PyObject *down, PyObject *index)
{
    if (!PyLong_Check(index)) {
        PyErr_SetString(PyExc_TypeError, "a pile index must be an int");
        return -1;
    }
    Py_ssize_t i = PyLong_AsSsize_t(index);
    if (i == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (i < 0 || i >= PyList_GET_SIZE(piles) || i >= PyList_GET_SIZE(down)) {
        PyErr_SetString(PyExc_IndexError, "a pile index is out of range");
        return -1;
    }
    PyObject *pile = PyList_GET_ITEM(piles, i);
    if (!PyList_Check(pile)) {
        PyErr_SetString(PyExc_TypeError, "a pile must be a list of card codes");
        return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(pile);
    if (out_reserve(o, n) < 0) {
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *card = PyList_GET_ITEM(pile, k);
        if (!PyLong_Check(card)) {
            PyErr_SetString(PyExc_TypeError, "a card code must be an int");
            return -1;
        }
        long code = PyLong_AsLong(card);
        if (code == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (code < 0 || code > 255) {
            PyErr_SetString(PyExc_ValueError, "a card code must be in range(0, 256)");
            return -1;
        }
        o->buf[o->len++] = (unsigned char)code;
    }
    /* (the pile's items were all read before anything else is looked up) */
    return put_count(o, PyList_GET_ITEM(down, i));
}

/* Parts of a group, for the sort: where each starts in the scratch buffer, how long. */
typedef struct {
    Py_ssize_t start, len;
} Part;

static int part_less(const unsigned char *buf, Part a, Part b)
{
    Py_ssize_t n = a.len < b.len ? a.len : b.len;
    int c = memcmp(buf + a.start, buf + b.start, (size_t)n);
    return c < 0 || (c == 0 && a.len < b.len);
}

static PyObject *key(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "key(piles, down, redeals, fixed, groups)");
        return NULL;
    }
    PyObject *piles = args[0], *down = args[1], *redeals = args[2];
    PyObject *fixed = args[3], *groups = args[4];
    if (!PyList_Check(piles) || !PyList_Check(down) || !PyList_Check(fixed) ||
        !PyList_Check(groups)) {
        PyErr_SetString(PyExc_TypeError, "piles, down, fixed and groups must be lists");
        return NULL;
    }
    Out out, scratch;
    out_init(&out);
    out_init(&scratch);
    PyObject *result = NULL;
    if (put_count(&out, redeals) < 0) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(fixed); k++) {
        if (put_pile(&out, piles, down, PyList_GET_ITEM(fixed, k)) < 0) {
            goto done;
        }
    }
    for (Py_ssize_t g = 0; g < PyList_GET_SIZE(groups); g++) {
        PyObject *group = PyList_GET_ITEM(groups, g);
        if (!PyList_Check(group)) {
            PyErr_SetString(PyExc_TypeError, "a group must be a list of pile indices");
            goto done;
        }
        Py_ssize_t n = PyList_GET_SIZE(group);
        if (n > MAX_GROUP) {
            PyErr_SetString(PyExc_ValueError, "a group holds 64 piles at most");
            goto done;
        }
        Part parts[MAX_GROUP];
        scratch.len = 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            parts[k].start = scratch.len;
            if (put_pile(&scratch, piles, down, PyList_GET_ITEM(group, k)) < 0) {
                goto done;
            }
            parts[k].len = scratch.len - parts[k].start;
        }
        /* insertion sort: a group is a few piles */
        for (Py_ssize_t k = 1; k < n; k++) {
            Part part = parts[k];
            Py_ssize_t j = k;
            while (j > 0 && part_less(scratch.buf, part, parts[j - 1])) {
                parts[j] = parts[j - 1];
                j--;
            }
            parts[j] = part;
        }
        if (out_reserve(&out, scratch.len) < 0) {
            goto done;
        }
        for (Py_ssize_t k = 0; k < n; k++) {
            memcpy(out.buf + out.len, scratch.buf + parts[k].start, (size_t)parts[k].len);
            out.len += parts[k].len;
        }
    }
    result = PyBytes_FromStringAndSize((const char *)out.buf, out.len);
done:
    out_free(&out);
    out_free(&scratch);
    return result;
}

static PyMethodDef methods[] = {
    {"key", (PyCFunction)(void (*)(void))key, METH_FASTCALL,
     "key(piles, down, redeals, fixed, groups) -> bytes: a position's canonical key"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_keys", "PositionKey.of() compiled (see _keys.c).", 0, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__keys(void)
{
    return PyModule_Create(&module);
}
