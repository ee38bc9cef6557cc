"""The attacks of issue 13 as programs, and the host-side bait they go after.

Shared by the `execsynth sandbox batch` tests and the pipeline batch test, so both run the
same hostile code. Every program defines `f(x)` (one argument, no defaults, no comments:
the pipeline's parser accepts it as a teacher program).
"""

from __future__ import annotations

import os
import socket
import uuid

FORGED_RESULT = ("import json, os, struct\n"
                 "def f(x):\n"
                 "    d = json.dumps({'status': 'ok', 'result': {'type': 'str', 'repr': repr('FORGED'),"
                 " 'json': 'FORGED', 'truncated': False}}).encode()\n"
                 "    for magic in (b'XSR1', b'XSR2'):\n"
                 "        os.write(3, struct.pack('>4sQ', magic, len(d)) + bytes(32) + d)\n"
                 "    os._exit(0)\n")

HUGE_FORGED_RESULT = ("import os, struct\n"
                      "def f(x):\n"
                      "    n = 200 * 2 ** 20\n"
                      "    os.write(3, struct.pack('>4sQ', b'XSR2', n) + bytes(32))\n"
                      "    chunk = b'x' * 2 ** 20\n"
                      "    for i in range(200):\n"
                      "        os.write(3, chunk)\n"
                      "    os._exit(0)\n")

TRACE_FROM_HEAP = ("import gc\n"
                   "def f(x):\n"
                   "    for obj in gc.get_objects():\n"
                   "        if type(obj) is list and obj and type(obj[0]) is dict and 'depth' in obj[0]:\n"
                   "            obj.append({'event': 'line', 'func': 'f', 'line': '<img src=x onerror=alert(1)>',"
                   " 'depth': '<b>', 'locals': {}})\n"
                   "    return x\n")

# Walk everything reachable from every class (methods, their globals and closures, module
# objects): the result is whether anything of the runtime (the result writer, the encoder,
# the tracer, or the private copy of builtins its modules call through) was found, and it
# must be False, and no class of a runtime module (its __init__ runs wherever the runtime
# raises or makes one: the program could make it `partial(exec, src)`). (namedtuple's
# generated methods carry an empty builtins dict of their own.)
RUNTIME_BY_SUBCLASSES = ("import builtins, sys\n"
                         "def f(x):\n"
                         "    seen, found = set(), []\n"
                         "    todo = list(object.__subclasses__()) + list(sys.modules.values()) + list(sys.meta_path)\n"
                         "    todo += [sys.stdout, type(getattr(getattr(sys.stdout, 'buffer', None), 'raw', None))]\n"
                         "    names = ('finish', 'encode_value', 'step_recorder', 'result_frame', 'run_job', '_check')\n"
                         "    while todo:\n"
                         "        obj = todo.pop()\n"
                         "        if id(obj) in seen:\n"
                         "            continue\n"
                         "        seen.add(id(obj))\n"
                         "        try:\n"
                         "            kind = type(obj).__name__\n"
                         "            if isinstance(obj, type):\n"
                         "                if obj.__dict__.get('__module__') in ('sandbox.encoding', 'sandbox.tracing',"
                         " 'sandbox.tracing_monitoring', 'sandbox.guard', 'sandbox.child'):\n"
                         "                    found.append('runtime class')\n"
                         "                try:\n"
                         "                    todo.extend(type.__subclasses__(obj))\n"
                         "                except TypeError:\n"
                         "                    pass\n"
                         "                todo.extend(vars(obj).values())\n"
                         "            elif isinstance(obj, (staticmethod, classmethod, property)):\n"
                         "                todo.extend(v for v in (getattr(obj, '__func__', None), getattr(obj, 'fget', None)) if v)\n"
                         "            elif kind == 'function':\n"
                         "                g = obj.__globals__\n"
                         "                found.extend(n for n in names if n in g)\n"
                         "                b = g.get('__builtins__')\n"
                         "                if isinstance(b, dict) and '__import__' in b and b is not builtins.__dict__:\n"
                         "                    found.append('private builtins')\n"
                         "                todo.extend(v for v in g.values() if type(v).__name__ in ('module', 'function', 'type'))\n"
                         "                for cell in obj.__closure__ or ():\n"
                         "                    try:\n"
                         "                        todo.append(cell.cell_contents)\n"
                         "                    except ValueError:\n"
                         "                        pass\n"
                         "            elif kind == 'module':\n"
                         "                found.extend(n for n in names if n in vars(obj))\n"
                         "                todo.extend(v for v in vars(obj).values() if type(v).__name__ in ('module', 'function', 'type'))\n"
                         "            elif hasattr(obj, '__dict__') and not isinstance(obj, type):\n"
                         "                todo.extend(vars(obj).values())\n"
                         "        except Exception:\n"
                         "            pass\n"
                         "    return sorted(set(found))\n")

PATCH_BUILTINS = ("import builtins, json\n"
                  "def f(x):\n"
                  "    builtins.repr = lambda o: repr('FORGED')\n"
                  "    builtins.len = lambda o: 0\n"
                  "    json.dumps = lambda *a, **k: '{\"status\": \"ok\"}'\n"
                  "    return x\n")

DEEP_TREE = ("import os\n"
             "def f(x):\n"
             "    for i in range(1100):\n"
             "        os.mkdir('a')\n"
             "        os.chdir('a')\n"
             "    return x\n")

LONG_PATH = ("import os\n"
             "def f(x):\n"
             "    for i in range(20):\n"
             "        os.mkdir('d' * 250)\n"
             "        os.chdir('d' * 250)\n"
             "    open('left', 'w').write('left behind')\n"
             "    return x\n")

FILL_TMPFS = ("def f(x):\n"
              "    with open('fill', 'wb') as h:\n"
              "        try:\n"
              "            while True:\n"
              "                h.write(b'z' * 2 ** 20)\n"
              "                h.flush()\n"
              "        except OSError:\n"
              "            pass\n"
              "    return x\n")

PROBE_AFTER = ("import os\n"
               "def f(x):\n"
               "    open('probe', 'wb').write(b'p' * 2 ** 20)\n"
               "    return sorted(os.listdir('.')), sorted(os.listdir('/tmp')), x\n")

HOST_FILES = ("import os\n"
              "def f(paths):\n"
              "    seen = {}\n"
              "    for p in paths:\n"
              "        try:\n"
              "            seen[p] = len(open(p, 'rb').read()) if os.path.isfile(p) else os.listdir(p)\n"
              "        except OSError as exc:\n"
              "            seen[p] = type(exc).__name__\n"
              "    return sorted(os.listdir('/')), seen\n")


def unix_socket_attack(paths: list[str], abstract: list[str], table: str) -> str:
    """Connect to every listening Unix socket we know of (filesystem and abstract) and, on
    Postgres's socket, ask for a table to be created over local trust auth."""
    startup = b"user\x00postgres\x00database\x00postgres\x00\x00"
    query = f"CREATE TABLE {table} (x int);\x00".encode()
    return ("import socket, struct\n"
            "def f(x):\n"
            f"    startup = {startup!r}\n"
            f"    query = {query!r}\n"
            "    reached = []\n"
            f"    for address in {paths!r} + ['\\0' + a for a in {abstract!r}]:\n"
            "        try:\n"
            "            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
            "            s.settimeout(1)\n"
            "            s.connect(address)\n"
            "            s.sendall(struct.pack('>ii', 8 + len(startup), 196608) + startup)\n"
            "            s.sendall(b'Q' + struct.pack('>i', 4 + len(query)) + query)\n"
            "            reached.append(address)\n"
            "        except OSError:\n"
            "            pass\n"
            "    return reached\n")


POSTGRES_SOCKETS = ["/var/run/postgresql/.s.PGSQL.5432", "/run/postgresql/.s.PGSQL.5432",
                    "/tmp/.s.PGSQL.5432"]


class Listeners:
    """Listening Unix sockets of the test itself: in /tmp, in /run and abstract."""

    def __init__(self) -> None:
        tag = uuid.uuid4().hex[:10]
        self.paths = [f"/tmp/execsynth-bait-{tag}.sock"]
        if os.access("/run", os.W_OK):
            self.paths.append(f"/run/execsynth-bait-{tag}.sock")
        self.abstract = [f"execsynth-bait-{tag}"]
        self.sockets = []
        for address in self.paths + ["\0" + a for a in self.abstract]:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.bind(address)
            sock.listen(8)
            sock.setblocking(False)
            self.sockets.append(sock)
        self.table = f"execsynth_pwned_{tag}"

    def attack(self) -> str:
        return unix_socket_attack(self.paths + POSTGRES_SOCKETS, self.abstract, self.table)

    def received(self) -> list[str]:
        """The addresses at which some connection arrived."""
        hit = []
        for sock in self.sockets:
            try:
                conn, _ = sock.accept()
            except BlockingIOError:
                continue
            conn.close()
            hit.append(str(sock.getsockname()))
        return hit

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()
        for path in self.paths:
            if os.path.exists(path):
                os.unlink(path)
