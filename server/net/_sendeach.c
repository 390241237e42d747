/*
 * Optional compiled speed-up of server.net.batch.WriteBatch: one push's frames
 * written to many sockets with the GIL released once.
 *
 * Why: a push of an arena's standings writes one frame to each of 2,000
 * followers. Written one by one through asyncio's transports, every write is a
 * socket.send that releases the GIL and must take it back; while the
 * group-commit writer's thread runs Python, each taking back waits for that
 * thread (up to the switch interval), so that a push of 10 ms of CPU took
 * 50 ms of wall time. Here the sends of a whole chunk run in one stretch
 * without the GIL (the other threads run beside them, on the other core), and
 * the event loop takes the GIL back once per chunk instead of once per
 * follower.
 *
 * send_each(fds, frames) -> list[int]: ``fds`` a list of socket file
 * descriptors (non-blocking, as asyncio's are), ``frames`` a list of bytes of
 * the same length; for each pair, one send() of the whole frame (never a wait:
 * MSG_DONTWAIT), retried on EINTR. The answer holds, for each, the bytes the
 * kernel took (possibly fewer than the frame's length: the socket's buffer was
 * full) or minus the errno of a failed send (-EAGAIN: it took nothing). The
 * caller hands what was not taken to the transport, which buffers it and
 * reports any error as asyncio does. Bad input raises TypeError or
 * ValueError before anything is sent.
 *
 * The module keeps no state.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <sys/socket.h>
#include <sys/types.h>

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0 /* Python ignores SIGPIPE anyway */
#endif
#ifndef MSG_DONTWAIT
#define MSG_DONTWAIT 0 /* asyncio's sockets are non-blocking anyway */
#endif

typedef struct {
    int fd;
    const char *buf;
    Py_ssize_t len;
    Py_ssize_t result;
} Send;

static PyObject *send_each(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *fds, *frames;
    if (!PyArg_ParseTuple(args, "O!O!:send_each", &PyList_Type, &fds, &PyList_Type, &frames)) {
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(fds);
    if (PyList_GET_SIZE(frames) != n) {
        PyErr_SetString(PyExc_ValueError, "send_each: as many frames as fds, please");
        return NULL;
    }
    /* the frames are held (a reference each) while the GIL is released: another
       thread may change the lists meanwhile, never the bytes being sent */
    PyObject *held = PyList_GetSlice(frames, 0, n);
    if (held == NULL) {
        return NULL;
    }
    Send *sends = PyMem_New(Send, n > 0 ? n : 1);
    if (sends == NULL) {
        Py_DECREF(held);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *frame = PyList_GET_ITEM(held, i);
        if (!PyBytes_Check(frame)) {
            PyErr_Format(PyExc_TypeError, "send_each: frame %zd is not bytes", i);
            goto fail;
        }
        long fd = PyLong_AsLong(PyList_GET_ITEM(fds, i));
        if (fd == -1 && PyErr_Occurred()) {
            goto fail;
        }
        if (fd < 0 || fd > INT_MAX) {
            PyErr_Format(PyExc_ValueError, "send_each: fd %zd is not a file descriptor", i);
            goto fail;
        }
        sends[i].fd = (int)fd;
        sends[i].buf = PyBytes_AS_STRING(frame);
        sends[i].len = PyBytes_GET_SIZE(frame);
    }

    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        ssize_t sent;
        do {
            sent = send(sends[i].fd, sends[i].buf, (size_t)sends[i].len,
                        MSG_DONTWAIT | MSG_NOSIGNAL);
        } while (sent < 0 && errno == EINTR);
        sends[i].result = sent < 0 ? -(Py_ssize_t)errno : (Py_ssize_t)sent;
    }
    Py_END_ALLOW_THREADS

    PyObject *out = PyList_New(n);
    if (out == NULL) {
        goto fail;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = PyLong_FromSsize_t(sends[i].result);
        if (value == NULL) {
            Py_DECREF(out);
            goto fail;
        }
        PyList_SET_ITEM(out, i, value);
    }
    PyMem_Free(sends);
    Py_DECREF(held);
    return out;

fail:
    PyMem_Free(sends);
    Py_DECREF(held);
    return NULL;
}

static PyMethodDef methods[] = {
    {"send_each", send_each, METH_VARARGS,
     "send_each(fds, frames) -> list[int]: one non-blocking send() of each frame to its fd, "
     "the GIL released once for all; each the bytes taken or minus the errno."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_sendeach",
    .m_doc = "One push's frames written to many sockets with the GIL released once (batch.py).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__sendeach(void)
{
    return PyModule_Create(&module);
}
