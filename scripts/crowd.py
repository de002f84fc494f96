#!/usr/bin/env python3
"""A crowd of strangers against `plateau serve` (docs/reliability.md, "A crowd of strangers").

Starts the given `plateau` binary on a fresh SQLite file, runs one attack from many loopback
addresses (127.0.0.0/8, this machine only), each address within its limits, and prints what the
server held: its resident memory (VmRSS from /proc, sampled every 50 ms), /health's latency
meanwhile, and the answers the crowd got. Every loop is bounded in count and time; the server is
stopped at the end.

    scripts/crowd.py PLATEAU_BINARY ATTACK

ATTACK is one of: signins, frames, headers, rematches, farm, connections, history, bots.
CROWD_NOFILE=N in the environment runs the server under an open files limit of N.
CROWD_BOT=LEVEL picks the bot of the `bots` attack (a level name, default expert).
"""

import asyncio
import base64
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Server:
    def __init__(self, binary, extra=()):
        self.dir = tempfile.mkdtemp(prefix="plateau-crowd-")
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        cmd = [binary, "serve", "--addr", f"127.0.0.1:{self.port}",
               "--database", f"sqlite://{self.dir}/crowd.sqlite", "--bot-delay-ms", "0", *extra]
        # CROWD_NOFILE=1024: the server under that open files limit (soft and hard).
        if os.environ.get("CROWD_NOFILE"):
            n = os.environ["CROWD_NOFILE"]
            cmd = ["prlimit", f"--nofile={n}:{n}", *cmd]
        self.proc = subprocess.Popen(
            cmd,
            stdout=subprocess.DEVNULL, stderr=open(f"{self.dir}/log", "w"))
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        self.peak = 0.0
        self.samples = []

    def rss(self):
        return rss_mb(self.proc.pid)

    async def sample(self, stop):
        while not stop.is_set():
            r = self.rss()
            self.peak = max(self.peak, r)
            self.samples.append((time.monotonic(), r))
            await asyncio.sleep(0.05)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


async def connect(port, src):
    sock = socket.socket()
    sock.setblocking(False)
    sock.bind((src, 0))
    loop = asyncio.get_running_loop()
    await loop.sock_connect(sock, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=sock)


async def request(port, src, method, path, body=None, cookie=None, timeout=60):
    """One HTTP/1.1 request on a new connection: (status, headers, body)."""
    try:
        r, w = await asyncio.wait_for(connect(port, src), timeout)
        data = json.dumps(body) if body is not None else ""
        head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" \
               f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        if cookie:
            head += f"Cookie: plateau_session={cookie}\r\n"
        w.write((head + "\r\n" + data).encode())
        raw = await asyncio.wait_for(r.read(), timeout)
        w.close()
    except (OSError, asyncio.TimeoutError):
        return 0, {}, ""
    text = raw.decode(errors="replace")
    head, _, rest = text.partition("\r\n\r\n")
    lines = head.split("\r\n")
    status = int(lines[0].split()[1]) if lines and len(lines[0].split()) > 1 else 0
    headers = {}
    for l in lines[1:]:
        k, _, v = l.partition(":")
        headers.setdefault(k.strip().lower(), []).append(v.strip())
    if "chunked" in ",".join(headers.get("transfer-encoding", [])):
        out, buf = "", rest
        while True:
            size, _, buf = buf.partition("\r\n")
            n = int(size or "0", 16)
            if n == 0:
                break
            out, buf = out + buf[:n], buf[n + 2:]
        rest = out
    return status, headers, rest


def cookie_of(headers):
    for c in headers.get("set-cookie", []):
        if c.startswith("plateau_session="):
            return c.split(";")[0].split("=", 1)[1]
    return None


class Ws:
    """A minimal WebSocket client (text frames, masked)."""

    async def open(self, port, src, path, cookie=None, token=None):
        self.closed = None
        self.r, self.w = await connect(port, src)
        key = base64.b64encode(os.urandom(16)).decode()
        head = f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" \
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        if cookie:
            head += f"Cookie: plateau_session={cookie}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.w.write((head + "\r\n").encode())
        status = await self.r.readuntil(b"\r\n\r\n")
        return status.startswith(b"HTTP/1.1 101")

    def send(self, obj):
        data = json.dumps(obj).encode()
        mask = os.urandom(4)
        n = len(data)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n))
        self.w.write(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    async def recv(self, timeout=30):
        """The next text message as JSON, or None once closed."""
        while True:
            try:
                b0, b1 = await asyncio.wait_for(self.r.readexactly(2), timeout)
            except (asyncio.IncompleteReadError, OSError, asyncio.TimeoutError):
                return None
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", await self.r.readexactly(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", await self.r.readexactly(8))[0]
            payload = await self.r.readexactly(n)
            op = b0 & 0x0F
            if op == 8:
                self.closed = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
                return None
            if op == 1:
                return json.loads(payload)

    async def until(self, pred, timeout=30):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = await self.recv(max(0.1, end - time.monotonic()))
            if m is None:
                return None
            if pred(m):
                return m
        return None


def health_once(port):
    """One GET /health on a new connection: (status, ms)."""
    t = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), 10, ("127.0.0.2", 0)) as s:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            status = int(s.recv(64).split()[1])
    except (OSError, ValueError, IndexError):
        status = 0
    return status, (time.monotonic() - t) * 1000


def probe(port):
    """`crowd.py --probe PORT`: GET /health every 100 ms until stdin closes, one `status ms`
    line each. A process of its own, so neither the crowd's event loop nor Python's global lock
    delays the probe: its figures are the server's."""
    import threading
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    while not done.is_set():
        status, ms = health_once(port)
        print(status, round(ms, 2), flush=True)
        done.wait(0.1)


async def health_watch(port, stop, out):
    """Runs the probe (`probe`) until `stop`; appends its (status, ms) answers to `out`."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--probe", str(port),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    await stop.wait()
    child.stdin.close()
    lines, _ = await child.communicate()
    for line in lines.decode().splitlines():
        status, ms = line.split()
        out.append((int(status), float(ms)))


async def guest(port, src, name):
    status, headers, body = await request(port, src, "POST", "/api/guest", {"name": name})
    assert status == 200, body
    return cookie_of(headers)


async def signins(binary):
    srv = Server(binary)
    cookie = await guest(srv.port, "127.0.0.3", "Owner")
    await request(srv.port, "127.0.0.3", "POST", "/api/account", {"password": "a long pass phrase"}, cookie)
    base = srv.rss()
    stop = asyncio.Event()
    health = []
    tasks = [asyncio.create_task(srv.sample(stop)), asyncio.create_task(health_watch(srv.port, stop, health))]
    answers = {}

    async def one(a):
        s, _, body = await request(srv.port, f"127.0.9.{10 + a}", "POST", "/api/login",
                                   {"name": "Owner", "password": "not the one"})
        code = json.loads(body).get("code") if body.startswith("{") else None
        answers[(s, code)] = answers.get((s, code), 0) + 1

    t = time.monotonic()
    await asyncio.gather(*(one(a) for a in range(60) for _ in range(10)))
    took = time.monotonic() - t
    await asyncio.sleep(1)
    stop.set()
    await asyncio.gather(*tasks)
    after = [srv.rss()]
    await asyncio.sleep(20)
    after.append(srv.rss())
    srv.stop()
    lat = sorted(ms for _, ms in health)
    print(json.dumps({"attack": "600 sign-ins from 60 addresses", "seconds": round(took, 2),
                      "rss_before_mb": round(base, 1), "rss_peak_mb": round(srv.peak, 1),
                      "rss_after_mb": round(after[0], 1), "rss_20s_later_mb": round(after[1], 1),
                      "health_answers": len(lat), "health_max_ms": round(lat[-1], 1) if lat else None,
                      "health_p50_ms": round(lat[len(lat) // 2], 1) if lat else None, "health_p90_ms": round(lat[int(len(lat) * 0.9)], 1) if lat else None,
                      "answers": {f"{k[0]} {k[1]}": v for k, v in sorted(answers.items(), key=str)}}))


async def frames(binary):
    srv = Server(binary)
    status, _, created = await request(srv.port, "127.0.0.3", "POST", "/api/matches",
                                       {"game": "mad", "seats": [{"kind": "human"}, {"kind": "human"}]})
    mid = json.loads(created)["id"]
    base = srv.rss()
    held = []

    async def one(a):
        ws = Ws()
        if not await ws.open(srv.port, f"127.0.10.{1 + a // 50}", f"/api/matches/{mid}/ws"):
            return
        # The header of a 1 MiB frame, then all of it but its last byte.
        n = 1 << 20
        ws.w.write(bytes([0x81, 0xFF]) + struct.pack(">Q", n) + os.urandom(4))
        ws.w.write(b"x" * (n - 1))
        try:
            await asyncio.wait_for(ws.w.drain(), 5)
        except (OSError, asyncio.TimeoutError):
            pass
        held.append(ws)

    await asyncio.gather(*(one(a) for a in range(500)))
    await asyncio.sleep(3)
    during = srv.rss()
    closes = {}
    for ws in held:
        while await ws.recv(0.05) is not None:
            pass
        try:
            gone = ws.closed is not None or await asyncio.wait_for(ws.r.read(1), 0.05) == b""
        except (OSError, asyncio.TimeoutError):
            gone = not isinstance(sys.exc_info()[1], asyncio.TimeoutError)
        # A close frame, or a reset: the server closed a socket with unread data pending.
        k = f"closed {ws.closed}" if ws.closed else ("closed (reset)" if gone else "open")
        closes[k] = closes.get(k, 0) + 1
    srv.stop()
    print(json.dumps({"attack": "500 unfinished 1 MiB WebSocket frames", "rss_before_mb": round(base, 1),
                      "rss_with_frames_mb": round(during, 1), "close_codes": closes}))


async def headers(binary):
    srv = Server(binary, ["--max-connections", "4000"])
    base = srv.rss()
    held = []

    async def one(a):
        try:
            r, w = await connect(srv.port, f"127.0.11.{1 + a // 60}")
        except OSError:
            return
        w.write(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * (400 * 1024))
        try:
            await asyncio.wait_for(w.drain(), 5)
        except (OSError, asyncio.TimeoutError):
            pass
        held.append((r, w))

    await asyncio.gather(*(one(a) for a in range(960)))
    await asyncio.sleep(2)
    during = srv.rss()
    statuses = {}
    for r, w in held:
        try:
            line = await asyncio.wait_for(r.readline(), 0.2)
        except (OSError, asyncio.TimeoutError):
            line = b""
        k = line.decode(errors="replace").strip()[:12] or "(nothing yet)"
        statuses[k] = statuses.get(k, 0) + 1
        w.close()
    await asyncio.sleep(3)
    after = srv.rss()
    srv.stop()
    print(json.dumps({"attack": "960 unfinished 400 KB request headers from 16 addresses",
                      "rss_before_mb": round(base, 1), "rss_with_headers_mb": round(during, 1),
                      "rss_after_closed_mb": round(after, 1), "answers": statuses}))


async def rematches(binary):
    srv = Server(binary)
    src = "127.0.12.1"
    cookie = await guest(srv.port, src, "Rematcher")
    s, _, body = await request(srv.port, src, "POST", "/api/matches",
                               {"game": "mad", "rated": True, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}, cookie)
    m = json.loads(body)
    mid, token = m["id"], m["token"]
    made, refusal, t = 1, None, time.monotonic()
    while made < 300 and time.monotonic() - t < 120:
        ws = Ws()
        await ws.open(srv.port, src, f"/api/matches/{mid}/ws", cookie=cookie, token=token)
        await ws.until(lambda m: m.get("type") == "state" and m.get("status") == "live")
        ws.send({"type": "resign"})
        await ws.until(lambda m: m.get("type") == "state" and m.get("status") == "finished")
        ws.send({"type": "rematch"})
        a = await ws.until(lambda m: m.get("type") in ("rematch", "error"))
        ws.w.close()
        if a is None or a["type"] == "error":
            refusal = a and a["code"]
            break
        made += 1
        mid, token = a["id"], a["token"]
    took = time.monotonic() - t
    srv.stop()
    print(json.dumps({"attack": "rematches from one address", "matches_made": made,
                      "seconds": round(took, 2), "then": refusal}))


async def play(ws_list, n):
    """Each socket (a seat) makes n actions, the first legal one each time."""
    made = [0] * len(ws_list)
    state = [None] * len(ws_list)
    while min(made) < n:
        for i, ws in enumerate(ws_list):
            m = await ws.until(lambda m: m.get("type") == "state", timeout=0.2)
            if m is not None:
                state[i] = m if m.get("snapshot") or state[i] is None else {**state[i], **m}
            s = state[i]
            if s and s.get("legal") and made[i] < n:
                ws.send({"type": "act", "version": s["version"], "action": s["legal"][0]})
                state[i] = None
                m = await ws.until(lambda m: m.get("type") == "state")
                state[i] = m
                made[i] += 1


async def farm(binary):
    srv = Server(binary)
    src = "127.0.13.1"
    farmer = await guest(srv.port, src, "Farmer")
    puppet = await guest(srv.port, src, "Puppet")
    unrated = {}
    refused = None
    t = time.monotonic()
    for _ in range(20):
        s, _, body = await request(srv.port, src, "POST", "/api/matches",
                                   {"game": "mad", "rated": True, "seats": [{"kind": "human"}, {"kind": "human"}]}, farmer)
        m = json.loads(body)
        s, _, body = await request(srv.port, src, "POST", f"/api/matches/{m.get('id')}/join", {}, puppet)
        if "id" not in m or s != 200:
            refused = m.get("code") or json.loads(body).get("code")
            break
        red, blue = Ws(), Ws()
        await red.open(srv.port, src, f"/api/matches/{m['id']}/ws", cookie=farmer)
        await blue.open(srv.port, src, f"/api/matches/{m['id']}/ws", cookie=puppet)
        await red.until(lambda m: m.get("type") == "state" and m.get("status") == "live")
        blue.send({"type": "resign"})
        await red.until(lambda m: m.get("type") == "state" and m.get("status") == "finished")
        red.w.close()
        blue.w.close()
        s, _, body = await request(srv.port, src, "GET", f"/api/matches/{m['id']}")
        why = json.loads(body).get("unrated")
        unrated[str(why)] = unrated.get(str(why), 0) + 1
    s, _, body = await request(srv.port, src, "GET", "/api/players/Farmer")
    ratings = json.loads(body).get("ratings", {})
    s, _, board = await request(srv.port, src, "GET", "/api/leaderboard/mad")
    srv.stop()
    print(json.dumps({"attack": "20 rated MAD matches of two guests of one address, the puppet resigning at once",
                      "seconds": round(time.monotonic() - t, 1), "unrated": unrated,
                      "then": refused,
                      "farmer_rating": ratings.get("mad", {}).get("rating"),
                      "leaderboard": [p["name"] for p in json.loads(board)["players"]]}))


async def connections(binary):
    srv = Server(binary)
    crowd = []
    refused = 0

    async def fill(a):
        nonlocal refused
        src = f"127.0.14.{1 + a}"
        for _ in range(70):
            ws = Ws()
            try:
                ok = await asyncio.wait_for(ws.open(srv.port, src, "/api/lobby/ws"), 10)
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
                ok = False
            if not ok:
                refused += 1
                return
            crowd.append(ws)

    t = time.monotonic()
    await asyncio.gather(*(fill(a) for a in range(100)))
    held = len(crowd)
    honest = []
    for _ in range(20):
        s, _, _ = await request(srv.port, "127.0.0.2", "GET", "/health", timeout=10)
        honest.append(s)
    srv.stop()
    print(json.dumps({"attack": "100 addresses holding every lobby socket they may",
                      "crowd_sockets_opened": held, "crowd_refused": refused,
                      "seconds": round(time.monotonic() - t, 1),
                      "honest_200": honest.count(200), "honest_tries": len(honest)}))


async def history(binary):
    srv = Server(binary, ["--exempt-address", "127.0.0.3"])
    ids = []
    for _ in range(6):
        s, _, body = await request(srv.port, "127.0.0.3", "POST", "/api/matches",
                                   {"game": "naval", "seats": [{"kind": "bot", "bot": "random"}] * 4})
        ids.append(json.loads(body)["id"])
    for i in ids:
        for _ in range(600):
            s, _, body = await request(srv.port, "127.0.0.3", "GET", f"/api/matches/{i}")
            if json.loads(body)["status"] == "finished":
                break
            await asyncio.sleep(0.5)
    versions = []
    for i in ids:
        s, _, body = await request(srv.port, "127.0.0.3", "GET", f"/api/matches/{i}")
        versions.append(json.loads(body)["version"])
    stop = asyncio.Event()
    stranger = {}

    async def flood():
        k = 0
        while not stop.is_set():
            batch = [request(srv.port, "127.0.15.1", "GET", f"/api/matches/{ids[1 + (k + j) % 5]}/history")
                     for j in range(16)]
            k += 16
            for s, _, _ in await asyncio.gather(*batch):
                stranger[s] = stranger.get(s, 0) + 1

    f = asyncio.create_task(flood())
    await asyncio.sleep(0.3)
    honest = []
    for _ in range(10):
        t = time.monotonic()
        s, _, _ = await request(srv.port, "127.0.0.2", "GET", f"/api/matches/{ids[0]}/history")
        honest.append((s, round((time.monotonic() - t) * 1000)))
    stop.set()
    await f
    srv.stop()
    print(json.dumps({"attack": "a stranger flooding /history of 4-seat naval games",
                      "log_lengths": versions, "stranger_answers": stranger,
                      "honest": honest}))


class Table:
    """One seat of a MAD match against a bot, played by its first legal action at once."""

    def __init__(self, port, src, bot):
        self.port, self.src, self.bot = port, src, bot

    async def start(self, cookie=None):
        self.cookie = cookie or await guest(self.port, self.src, f"p{os.urandom(6).hex()}")
        s, _, body = await request(self.port, self.src, "POST", "/api/matches",
                                   {"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": self.bot}]},
                                   self.cookie)
        m = json.loads(body) if body.startswith("{") else {"code": f"HTTP {s}"}
        if "id" not in m:
            return m.get("code")
        self.ws = Ws()
        await self.ws.open(self.port, self.src, f"/api/matches/{m['id']}/ws", cookie=self.cookie, token=m["token"])
        self.state = None
        return None

    async def my_turn(self, timeout=60):
        """The state once it is this seat's turn; None once the match ended or the socket closed."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = await self.ws.until(lambda m: m.get("type") == "state", max(0.1, end - time.monotonic()))
            if m is None:
                return None
            self.state = m if m.get("snapshot") or self.state is None else {**self.state, **m}
            if self.state.get("status") == "finished":
                return None
            if self.state.get("legal"):
                return self.state
        return None

    def act(self, state):
        self.ws.send({"type": "act", "version": state["version"], "action": state["legal"][0]})
        self.state = None


async def bots(binary):
    """An honest player's bot replies while 13 addresses keep 8 tables each busy (the most
    tables with bots one address may keep unfinished), every stranger moving at once."""
    srv = Server(binary)
    bot = os.environ.get("CROWD_BOT", "expert")

    async def honest_replies(n):
        """The times of `n` bot replies to the honest player, over as many tables as it takes."""
        lat = []
        cookie = None
        while len(lat) < n:
            me = Table(srv.port, "127.0.16.1", bot)
            code = await me.start(cookie)
            assert code is None, code
            cookie = me.cookie
            state = await me.my_turn()
            while state is not None and len(lat) < n:
                me.act(state)
                t = time.monotonic()
                state = await me.my_turn()
                if state is not None:
                    lat.append((time.monotonic() - t) * 1000)
            me.ws.w.close()
        return sorted(lat)

    alone = await honest_replies(20)
    stop = asyncio.Event()
    refused = {}
    moves = 0

    async def stranger(src):
        nonlocal moves
        cookie = await guest(srv.port, src, f"p{os.urandom(6).hex()}")
        while not stop.is_set():
            t = Table(srv.port, src, bot)
            code = await t.start(cookie)
            if code is not None:
                refused[code] = refused.get(code, 0) + 1
                await asyncio.sleep(1)
                continue
            while not stop.is_set():
                state = await t.my_turn(5)
                if state is None:
                    break
                t.act(state)
                moves += 1
            t.ws.w.close()

    crowd = [asyncio.create_task(stranger(f"127.0.17.{1 + a}")) for a in range(13) for _ in range(8)]
    await asyncio.sleep(10)
    during = await honest_replies(20)
    stop.set()
    for c in crowd:
        c.cancel()
    await asyncio.gather(*crowd, return_exceptions=True)
    srv.stop()
    pct = lambda l, q: round(l[min(len(l) - 1, int(len(l) * q))]) if l else None
    print(json.dumps({"attack": f"13 addresses x 8 tables against the {bot} bot, strangers moving at once",
                      "honest_alone_ms": {"p50": pct(alone, 0.5), "p90": pct(alone, 0.9), "n": len(alone)},
                      "honest_in_the_crowd_ms": {"p50": pct(during, 0.5), "p90": pct(during, 0.9), "n": len(during)},
                      "stranger_moves": moves, "stranger_refusals": refused}))


ATTACKS = {"signins": signins, "frames": frames, "headers": headers, "rematches": rematches,
           "farm": farm, "connections": connections, "history": history, "bots": bots}

if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--probe":
        probe(int(sys.argv[2]))
        sys.exit()
    if len(sys.argv) != 3 or sys.argv[2] not in ATTACKS:
        sys.exit(__doc__)
    asyncio.run(ATTACKS[sys.argv[2]](sys.argv[1]))
