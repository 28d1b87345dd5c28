#!/usr/bin/env python3
"""A pretend iTerm2 that speaks iTerm2's own API protocol, for running the bridge with the REAL `iterm2` library
(tests/e2e/iterm2-real-library.test.ts). It listens where the library connects: a websocket (subprotocol
api.iterm2.com) on the unix socket $HOME/Library/Application Support/iTerm2/private/socket; messages are api.proto's
ClientOriginatedMessage / ServerOriginatedMessage, built with the library's own generated api_pb2.py (loaded from
the library's folder, argv[1]: nothing of the library is copied here). Cookies are single use, as iTerm2's are:
the first comes in argv[3] (as iTerm2 hands one to an AutoLaunch script), later ones are issued by fake_osascript.py
(the AppleScript `request cookie and key`) as files in the state folder argv[2].

Scripted like iterm2_driver.py: one JSON command per line on stdin, one JSON event per line on stdout:
    {"event": "done"|"error", "n": ...}        the command was applied (or not)
    {"event": "sent_text", "session", "text"}  the bridge typed into a session
    {"event": "activated", "session", "app"}   the bridge brought a session (and the app) forward
    {"event": "connected"|"disconnected"}      a client connection came or went
argv[4] is the initial layout: {"w1": [["S1", "zsh", 80, 24], ...]}.
"""
import asyncio
import importlib.util
import json
import os
import sys

import websockets

#: iTerm2's protocol version in its handshake reply; 1.1 and later report prompt modes (capabilities.py).
PROTOCOL_VERSION = "1.9"
#: A command waits this many 10 ms steps for a client to subscribe to what it scripts.
SUBSCRIBE_STEPS = 1000


def load_api_pb2(library):
    spec = importlib.util.spec_from_file_location("iterm2_api_pb2", os.path.join(library, "iterm2", "api_pb2.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def report(**event):
    print(json.dumps(event), flush=True)


class Session:
    def __init__(self, sid, name, cols=80, rows=24):
        self.sid, self.name, self.cols, self.rows = sid, name, cols, rows
        self.lines = [""] * rows
        self.cursor = (0, 0)
        self.first_line = 1000
        self.variables = {"columns": cols, "jobName": "zsh", "jobPid": 4000, "commandLine": "-zsh", "tty": "/dev/ttys001", "terminalWindowName": "~"}


class Iterm:
    def __init__(self, pb, state_dir, layout, first_cookie):
        self.pb = pb
        self.state_dir = state_dir
        self.cookies = {first_cookie}
        self.windows = {}  # window id -> [tab id, [session, ...]] (one tab per window)
        for wid, sessions in layout.items():
            self.windows[wid] = [f"tab-{wid}", [Session(*s) for s in sessions]]
        self.key_window = next(iter(self.windows), None)
        self.app_active = True
        self.clients = {}  # websocket -> [(type, session or None, extra)]
        self.server = None

    # -- the socket ------------------------------------------------------------------------------------------
    def socket_path(self):
        return os.path.expanduser("~/Library/Application Support/iTerm2/private/socket")

    async def start(self):
        path = self.socket_path()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if os.path.exists(path):
            os.unlink(path)
        # Running first (AppleScript answers), then listening, as an app that starts before its API socket does.
        open(os.path.join(self.state_dir, "running"), "w").close()
        self.server = await websockets.unix_serve(
            self.serve, path, subprotocols=["api.iterm2.com"], process_request=self.check_cookie,
            extra_headers=[("X-iTerm2-Protocol-Version", PROTOCOL_VERSION)], max_size=None)

    async def quit(self):
        os.unlink(os.path.join(self.state_dir, "running"))
        self.server.close()
        for ws in list(self.clients):
            await ws.close()
        await self.server.wait_closed()
        if os.path.exists(self.socket_path()):
            os.unlink(self.socket_path())

    def check_cookie(self, _path, headers):
        """A cookie is good once: the first (argv) or one fake_osascript.py wrote as a file."""
        cookie = headers.get("x-iterm2-cookie")
        issued = os.path.join(self.state_dir, "cookies", cookie) if cookie and "/" not in cookie else None
        if cookie in self.cookies:
            self.cookies.discard(cookie)
            return None
        if issued and os.path.exists(issued):
            os.unlink(issued)
            return None
        report(event="refused", cookie=cookie)
        return (401, [], b"a cookie is needed\n")

    async def serve(self, ws, _path=None):
        self.clients[ws] = []
        report(event="connected")
        try:
            async for data in ws:
                request = self.pb.ClientOriginatedMessage()
                request.ParseFromString(data)
                response = self.answer(ws, request)
                response.id = request.id
                await ws.send(response.SerializeToString())
        except websockets.ConnectionClosed:
            pass
        finally:
            self.clients.pop(ws, None)
            report(event="disconnected")

    # -- requests --------------------------------------------------------------------------------------------
    def answer(self, ws, request):
        pb = self.pb
        out = pb.ServerOriginatedMessage()
        which = request.WhichOneof("submessage")
        if which == "list_sessions_request":
            self.fill_layout(out.list_sessions_response)
        elif which == "notification_request":
            r = request.notification_request
            key = (r.notification_type, r.session if r.HasField("session") and r.session != "all" else None,
                   (r.variable_monitor_request.identifier, r.variable_monitor_request.name) if r.HasField("variable_monitor_request") else None)
            subs = self.clients[ws]
            if r.subscribe:
                status = "ALREADY_SUBSCRIBED" if key in subs else "OK"
                subs.append(key)
            else:
                status = "OK" if key in subs else "NOT_SUBSCRIBED"
                if key in subs:
                    subs.remove(key)
            out.notification_response.status = pb.NotificationResponse.Status.Value(status)
        elif which == "focus_request":
            for n in self.focus_info():
                out.focus_response.notifications.add().CopyFrom(n)
        elif which == "get_broadcast_domains_request":
            out.get_broadcast_domains_response.SetInParent()
        elif which == "get_buffer_request":
            s = self.session(request.get_buffer_request.session)
            b = out.get_buffer_response
            if s is None:
                b.status = pb.GetBufferResponse.Status.Value("SESSION_NOT_FOUND")
            else:
                for line in s.lines:
                    b.contents.add(text=line)
                b.cursor.x, b.cursor.y = s.cursor[0], s.cursor[1] + s.first_line
                b.windowed_coord_range.coord_range.start.y = s.first_line
                b.windowed_coord_range.coord_range.end.y = s.first_line + len(s.lines)
                b.num_lines_above_screen = s.first_line
        elif which == "variable_request":
            s = self.session(request.variable_request.session_id)
            v = out.variable_response
            if s is None:
                v.status = pb.VariableResponse.Status.Value("SESSION_NOT_FOUND")
            else:
                v.values.extend(json.dumps(s.variables.get(name)) for name in request.variable_request.get)
        elif which == "send_text_request":
            r = request.send_text_request
            report(event="sent_text", session=r.session, text=r.text, suppress_broadcast=r.suppress_broadcast)
            out.send_text_response.status = 0 if self.session(r.session) else 1
        elif which == "activate_request":
            r = request.activate_request
            report(event="activated", session=r.session_id if r.HasField("session_id") else None,
                   app=r.HasField("activate_app"), select_tab=r.select_tab, order_window_front=r.order_window_front)
            out.activate_response.status = 0
        else:
            out.error = f"this pretend iTerm2 does not answer {which}"
        return out

    def fill_layout(self, response):
        for wid, (tid, sessions) in self.windows.items():
            w = response.windows.add(window_id=wid)
            tab = w.tabs.add(tab_id=tid)
            for s in sessions:
                link = tab.root.links.add()
                link.session.unique_identifier = s.sid
                link.session.title = s.name
                link.session.grid_size.width, link.session.grid_size.height = s.cols, s.rows

    def focus_info(self):
        pb = self.pb
        out = [pb.FocusChangedNotification(application_active=self.app_active)]
        if self.key_window:
            n = pb.FocusChangedNotification()
            n.window.window_id, n.window.window_status = self.key_window, 0
            out.append(n)
        for tid, sessions in self.windows.values():
            out.append(pb.FocusChangedNotification(selected_tab=tid))
            if sessions:
                out.append(pb.FocusChangedNotification(session=sessions[0].sid))
        return out

    def session(self, sid):
        return next((s for _, ss in self.windows.values() for s in ss if s.sid == sid), None)

    # -- notifications ---------------------------------------------------------------------------------------
    def subscribers(self, ntype, session=None, variable=None):
        return [ws for ws, subs in self.clients.items()
                if any(t == ntype and s in (session, None) and v == variable for t, s, v in subs)]

    async def watched(self, ntype, session=None, variable=None):
        for _ in range(SUBSCRIBE_STEPS):
            if self.subscribers(ntype, session, variable):
                return
            await asyncio.sleep(0.01)
        raise RuntimeError(f"nobody subscribed to {self.pb.NotificationType.Name(ntype)} {session or ''} {variable or ''}")

    async def notify(self, ntype, fill, session=None, variable=None):
        await self.watched(ntype, session, variable)
        message = self.pb.ServerOriginatedMessage()
        fill(message.notification)
        for ws in self.subscribers(ntype, session, variable):
            await ws.send(message.SerializeToString())

    async def apply(self, cmd):
        pb, op, sid = self.pb, cmd["op"], cmd.get("session")
        if op == "show":
            s = self.session(sid)
            s.lines, s.cursor = list(cmd["rows"]), tuple(cmd["cursor"])
            await self.notify(pb.NOTIFY_ON_SCREEN_UPDATE, lambda n: n.screen_update_notification.SetInParent() or setattr(n.screen_update_notification, "session", sid), sid)
        elif op == "prompt":
            def fill(n):
                p = n.prompt_notification
                p.session = sid
                if cmd["mode"] == "COMMAND_START":
                    p.command_start.command = cmd.get("value") or ""
                elif cmd["mode"] == "COMMAND_END":
                    p.command_end.status = cmd.get("value") or 0
                else:
                    p.prompt.SetInParent()
            await self.notify(pb.NOTIFY_ON_PROMPT, fill, sid)
        elif op == "key":
            def fill(n):
                k = n.keystroke_notification
                k.session, k.characters, k.charactersIgnoringModifiers, k.keyCode = sid, cmd["chars"], cmd["chars"], cmd["keycode"]
                k.modifiers.extend(cmd.get("modifiers", []))
            await self.notify(pb.NOTIFY_ON_KEYSTROKE, fill, sid)
        elif op == "var":
            self.session(sid).variables[cmd["name"]] = cmd["value"]

            def fill(n):
                v = n.variable_changed_notification
                v.scope, v.identifier, v.name, v.json_new_value = pb.VariableScope.Value("SESSION"), sid, cmd["name"], json.dumps(cmd["value"])
            await self.notify(pb.NOTIFY_ON_VARIABLE_CHANGE, fill, None, (sid, cmd["name"]))
        elif op == "focus":
            u = cmd["update"]
            n = pb.FocusChangedNotification()
            if "application_active" in u:
                self.app_active = n.application_active = u["application_active"]
            elif "window" in u:
                n.window.window_id, n.window.window_status = u["window"][0], u["window"][1]
            elif "selected_tab" in u:
                n.selected_tab = u["selected_tab"]
            else:
                n.session = u["session"]
            await self.notify(pb.NOTIFY_ON_FOCUS_CHANGE, lambda m: m.focus_changed_notification.CopyFrom(n))
        elif op == "new_session":
            s = Session(sid, cmd["name"], cmd.get("cols", 80), cmd.get("rows", 24))
            self.windows[cmd["window"]] = [f"tab-{cmd['window']}", [s]]
            await self.notify(pb.NOTIFY_ON_NEW_SESSION, lambda n: setattr(n.new_session_notification, "session_id", sid))
        elif op == "terminate":
            for _, ss in self.windows.values():
                ss[:] = [s for s in ss if s.sid != sid]
            await self.notify(pb.NOTIFY_ON_TERMINATE_SESSION, lambda n: setattr(n.terminate_session_notification, "session_id", sid))
        elif op == "quit":
            await self.quit()
        elif op == "start":
            await self.start()
        else:
            raise ValueError(f"unknown op {op}")


async def main():
    library, state_dir, first_cookie, layout = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    os.makedirs(os.path.join(state_dir, "cookies"), exist_ok=True)
    iterm = Iterm(load_api_pb2(library), state_dir, layout, first_cookie)
    await iterm.start()
    report(event="listening", socket=iterm.socket_path())
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    n = 0
    while True:
        line = await reader.readline()
        if not line:
            return
        n += 1
        try:
            await iterm.apply(json.loads(line))
            report(event="done", n=n)
        except Exception as e:  # noqa: BLE001
            report(event="error", n=n, error=f"{type(e).__name__}: {e}")


if __name__ == "__main__":
    asyncio.run(main())
