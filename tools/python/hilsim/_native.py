"""libhilbus (io/bus/client/hilbus.h), loaded once through ctypes for hilsim.bus and
hilsim.client. It is looked for, in this order:

1. $HILBUS_LIBRARY, the library's path (nothing else is tried when it is set);
2. where `cmake --install` put it: the path the install wrote into hilsim/_installed.py;
3. in a source checkout (this package in tools/python/hilsim), the release build:
   build/release/io/bus/client/libhilbus.so.1;
4. the system's (ldconfig), for a package installed without its library.

When none loads, LibraryNotFoundError lists what was tried and why each failed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib
import os
import pathlib
import threading

__all__ = ["LibraryNotFoundError", "Meta", "RegionInfo", "library", "library_path",
           "runtime_directory", "status_name"]

SONAME = "libhilbus.so.1"
_PACKAGE = pathlib.Path(__file__).resolve().parent


class LibraryNotFoundError(OSError):
    """No usable libhilbus: the message lists every place tried and why it failed."""


class Meta(ctypes.Structure):
    """struct hilbus_meta."""
    _fields_ = [("region_seq", ctypes.c_uint64), ("tick", ctypes.c_int64),
                ("session", ctypes.c_uint64), ("publish_mono_ns", ctypes.c_uint64),
                ("age_ns", ctypes.c_uint64), ("status", ctypes.c_uint32),
                ("value_count", ctypes.c_uint32)]


class RegionInfo(ctypes.Structure):
    """struct hilbus_region_info."""
    _fields_ = [("name", ctypes.c_char_p), ("writer", ctypes.c_char_p), ("id", ctypes.c_uint32),
                ("direction", ctypes.c_uint32), ("value_count", ctypes.c_uint32),
                ("timeout_ticks", ctypes.c_uint32), ("expected_period_ns", ctypes.c_uint64)]


_c = ctypes
_p = ctypes.c_void_p
_SIGNATURES: dict[str, tuple[type | None, list[type]]] = {
    "hilbus_attach_ex": (_p, [_c.c_char_p, _c.c_char_p, _c.c_uint32, _c.c_char_p, _c.c_uint64,
                              _c.POINTER(_c.c_int), _c.c_char_p, _c.c_size_t]),
    "hilbus_detach": (None, [_p]),
    "hilbus_region_count": (_c.c_uint32, [_p]),
    "hilbus_region_info": (_c.c_int, [_p, _c.c_uint32, _c.POINTER(RegionInfo)]),
    "hilbus_channel_name": (_c.c_char_p, [_p, _c.c_uint32, _c.c_uint32]),
    "hilbus_read": (_c.c_int, [_p, _c.c_uint32, _c.POINTER(_c.c_double), _c.c_uint32,
                               _c.POINTER(Meta)]),
    "hilbus_write": (_c.c_int, [_p, _c.c_uint32, _c.POINTER(_c.c_double), _c.c_uint32,
                                _c.c_int64, _c.c_uint32]),
    "hilbus_wait": (_c.c_int, [_p, _c.c_uint32, _c.c_uint64, _c.c_uint32]),
    "hilbus_detached": (_c.c_int, [_p]),
    "hilbus_strerror": (_c.c_char_p, [_c.c_int]),
    "hilbus_status_name": (_c.c_char_p, [_c.c_int]),
    "hilbus_runtime_directory": (_c.c_char_p, [_c.c_char_p, _c.c_size_t]),  # libhilbus 1.1
}

_lock = threading.Lock()
_loaded: tuple[ctypes.CDLL, str] | None = None


def _installed_path() -> pathlib.Path | None:
    """The library `cmake --install` put beside this package, if it was installed so."""
    try:
        installed = importlib.import_module(f"{__package__}._installed")
    except ModuleNotFoundError:
        return None
    relative: str = installed.LIBHILBUS
    return pathlib.Path(os.path.normpath(_PACKAGE / relative))


def _candidates() -> list[tuple[str, str | None]]:
    """(where, path or None when there is nothing there) in the order they are tried."""
    env = os.environ.get("HILBUS_LIBRARY")
    if env:
        return [("$HILBUS_LIBRARY", env)]
    found: list[tuple[str, str | None]] = []
    installed = _installed_path()
    if installed is not None:
        found.append(("the installed library (hilsim/_installed.py)", str(installed)))
    checkout = _PACKAGE.parents[2]  # tools/python/hilsim -> the checkout
    if (checkout / "io" / "bus" / "client" / "hilbus.h").is_file():
        build = checkout / "build" / "release" / "io" / "bus" / "client" / SONAME
        found.append(("the source checkout's release build", str(build)))
    found.append(("the system's (ldconfig)", ctypes.util.find_library("hilbus")))
    return found


def _open(path: str) -> ctypes.CDLL:
    """Loads `path` and declares every function; OSError says why it is unusable."""
    if os.sep in path and not os.path.exists(path):
        raise OSError("no such file")
    lib = ctypes.CDLL(path)
    for name, (restype, argtypes) in _SIGNATURES.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            raise OSError(f"it has no {name}: older than this package (libhilbus 1.1)") from None
        fn.restype, fn.argtypes = restype, argtypes
    return lib


def _load() -> tuple[ctypes.CDLL, str]:
    tried: list[str] = []
    for where, path in _candidates():
        if path is None:
            tried.append(f"{where}: none")
            continue
        try:
            return _open(path), path
        except OSError as e:
            tried.append(f"{where} {path}: {e}")
    raise LibraryNotFoundError(
        "no usable libhilbus. Tried:\n  " + "\n  ".join(tried) + "\nSet HILBUS_LIBRARY to the "
        "path of libhilbus.so.1 (built by `cmake --build build/release --target hilbus`, "
        "installed by `cmake --install`).")


def _get() -> tuple[ctypes.CDLL, str]:
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = _load()
        return _loaded


def library() -> ctypes.CDLL:
    """libhilbus with every function declared (loaded at the first call)."""
    return _get()[0]


def library_path() -> str:
    """The path libhilbus was loaded from."""
    return _get()[1]


def status_name(code: int) -> str:
    """A status code's short name ("role_taken"), as hilbus_status_name gives it."""
    name: bytes = library().hilbus_status_name(code)
    return name.decode()


def runtime_directory() -> str:
    """The runtime directory hilsim keeps its sockets and token files in, as libhilbus (and so
    hilsim) chooses it (hilbus_runtime_directory); created when missing. OSError when it
    cannot be."""
    why = ctypes.create_string_buffer(512)
    path: bytes | None = library().hilbus_runtime_directory(why, len(why))
    if path is None:
        raise OSError(f"no hilsim runtime directory: {why.value.decode(errors='replace')}")
    return os.fsdecode(path)
