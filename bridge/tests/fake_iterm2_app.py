"""The pretend iTerm2 behind the fake `iterm2` module (fake_iterm2.py): its windows, tabs and sessions, which of
them has focus, its cookies, whether it is running, and what each live connection subscribed to. A test scripts it:
screens change, prompts, keys, variables, focus, sessions come and go, iTerm2 quits and starts again.
"""
import asyncio
import secrets
import types

#: Scheduler turns a test waits for the bridge to react before it fails (no wall-clock timing).
MAX_TURNS = 5000


async def until(predicate, what):
    for _ in range(MAX_TURNS):
        if predicate():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"gave up waiting for {what}")


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


class ScreenContents:
    """Rows of text and a cursor; `first_line` is the absolute number of the screen's first line, as iTerm2 counts
    (screen.py: cursor_coord and windowed_coord_range are in those numbers)."""

    def __init__(self, rows, cursor, first_line=0):
        self._rows = list(rows)
        self.cursor_coord = Point(cursor[0], cursor[1] + first_line)
        self.number_of_lines_above_screen = first_line
        self.windowed_coord_range = types.SimpleNamespace(coordRange=types.SimpleNamespace(start=Point(0, first_line)))

    @property
    def number_of_lines(self):
        return len(self._rows)

    def line(self, i):
        return types.SimpleNamespace(string=self._rows[i])


class SessionState:
    """One session as iTerm2 knows it."""

    def __init__(self, session_id, name, cols=80, rows=24):
        self.session_id = session_id
        self.name = name
        self.cols, self.rows = cols, rows
        self.variables = {"columns": cols}
        self.contents = ScreenContents([""] * rows, (0, 0))
        self.sent_text = []
        self.on_text = None  # called with (text, suppress_broadcast) as text is typed (the e2e driver reports it)
        self.activated = []


class TabState:
    def __init__(self, tab_id, sessions):
        self.tab_id = tab_id
        self.sessions = sessions
        self.minimized = []  # hidden while another pane of the tab is maximised
        self.active_session_id = sessions[0].session_id if sessions else None


class WindowState:
    def __init__(self, window_id, tabs):
        self.window_id = window_id
        self.tabs = tabs
        self.selected_tab_id = tabs[0].tab_id if tabs else None


class FakeIterm:
    """The pretend iTerm2 a test scripts."""

    def __init__(self):
        self.windows = []
        self.running = True
        self.app_active = True
        self.key_window_id = None
        #: Subscriptions of live connections: (connection, kind, key) as iTerm2 records a notification request.
        self.subscriptions = []
        #: What monitors watch, as the library's handler table has them: (connection, kind, key).
        self.watching = []
        self.connections = []
        #: None: any app may connect (auth.py `applescript_auth_disabled`); else the cookies iTerm2 issued, unused.
        self.cookies = None
        #: Can a script ask for a cookie (auth.py: AppleScript through AppKit or /usr/bin/osascript)?
        self.applescript = True
        self.prompt_modes_supported = True
        #: False: iTerm2's focus info is empty (not known yet), so the App's app_active and current window stay None.
        self.answers_focus = True
        #: What the App's and monitors' handlers raised inside the library's dispatch (it stops at the first).
        self.dispatch_errors = []
        self.refreshes = 0
        #: Screen notifications a ScreenStreamer dropped (nobody awaiting), and what to do during its next fetch.
        self.dropped_screen_updates = 0
        self.during_fetch = []
        self.activations = []
        self.connects = 0

    # -- cookies (iTerm2 takes each once) ------------------------------------------------------------------
    def require_cookies(self, *initial):
        self.cookies = set(initial)

    def issue_cookie(self):
        cookie = secrets.token_hex(8)
        self.cookies.add(cookie)
        return cookie

    def accept(self, connection, cookie):
        """A connection attempt: refused (ConnectionRefusedError, 401 as PermissionError) or recorded."""
        if not self.running:
            raise ConnectionRefusedError("iTerm2 is not running")
        if self.cookies is not None:
            if cookie not in self.cookies:
                raise PermissionError("server rejected WebSocket connection: HTTP 401")
            self.cookies.discard(cookie)
        self.connects += 1
        self.connections.append(connection)

    # -- what live connections subscribed to ---------------------------------------------------------------
    def subscribe(self, connection, kind, key):
        if (connection, kind, key) not in self.subscriptions:
            self.subscriptions.append((connection, kind, key))

    def unsubscribe(self, connection, kind, key):
        if (connection, kind, key) in self.subscriptions:
            self.subscriptions.remove((connection, kind, key))

    @property
    def monitors(self):
        """What the bridge's monitors watch now (connection open, inside their `async with`): (kind, key)."""
        return [(kind, key) for c, kind, key in self.watching if not c.closed.is_set()]

    def subscribed(self, kind, key=None):
        return [m for m in self.monitors if m[0] == kind and (key is None or m[1] == key)]

    async def until_subscribed(self, kind, key=None):
        await until(lambda: self.subscribed(kind, key), f"a {kind} monitor for {key}")

    def _emit(self, kind, key, item):
        """To each open connection subscribed to this notification (for this session, or for all)."""
        targets = {c for c, k, sub_key in self.subscriptions if k == kind and sub_key in (key, None) and not c.closed.is_set()}
        assert targets, f"nobody subscribed to {kind} {key}"
        for connection in targets:
            connection.notify(kind, key, item)

    # -- layout ---------------------------------------------------------------------------------------------
    def add_window(self, window_id, *sessions):
        """A window with one tab holding `sessions` ((id, name[, cols, rows]) tuples)."""
        made = [SessionState(*s) for s in sessions]
        self.windows.append(WindowState(window_id, [TabState(f"tab-{window_id}", made)]))
        if self.key_window_id is None:
            self.key_window_id = window_id
        return made

    def session(self, session_id):
        return next((s for w in self.windows for t in w.tabs for s in t.sessions + t.minimized if s.session_id == session_id), None)

    def window(self, window_id):
        return next((w for w in self.windows if w.window_id == window_id), None)

    def focus_info(self):
        """iTerm2's answer to a focus request (app.py async_refresh_focus): the app, the key window, each window's
        selected tab, each tab's active session."""
        if not self.answers_focus:
            return []
        out = [FocusInfo(application_active=self.app_active)]
        if self.key_window_id is not None:
            out.append(FocusInfo(window=(self.key_window_id, 0)))
        for w in self.windows:
            out.append(FocusInfo(selected_tab=w.selected_tab_id))
            out += [FocusInfo(session=t.active_session_id) for t in w.tabs if t.active_session_id]
        return out

    def layout_changed(self):
        self._emit("layout", None, True)

    def new_session(self, window_id, session_id, name):
        s = SessionState(session_id, name)
        self.window(window_id).tabs.append(TabState(f"tab-{session_id}", [s]))
        self._emit("new_session", None, types.SimpleNamespace(session_id=session_id))
        return s

    def maximize(self, session_id):
        """The pane is maximised: the others in its tab are hidden (minimised), still running."""
        for w in self.windows:
            for t in w.tabs:
                if any(s.session_id == session_id for s in t.sessions):
                    t.minimized = [s for s in t.sessions if s.session_id != session_id]
                    t.sessions = [s for s in t.sessions if s.session_id == session_id]
        self.layout_changed()

    def terminate(self, session_id):
        for w in self.windows:
            for t in w.tabs:
                t.sessions = [s for s in t.sessions if s.session_id != session_id]
            w.tabs = [t for t in w.tabs if t.sessions]
            for t in w.tabs:
                if t.active_session_id not in [s.session_id for s in t.sessions]:
                    t.active_session_id = t.sessions[0].session_id
            if w.selected_tab_id not in [t.tab_id for t in w.tabs]:
                w.selected_tab_id = w.tabs[0].tab_id if w.tabs else None
        self.windows = [w for w in self.windows if w.tabs]
        if self.window(self.key_window_id) is None:
            self.key_window_id = self.windows[0].window_id if self.windows else None
        self._emit("terminate", None, types.SimpleNamespace(session_id=session_id))

    # -- per session ----------------------------------------------------------------------------------------
    def show(self, session_id, rows, cursor, first_line=0, notify=True):
        """The session's screen changes; notify=False: iTerm2 sent no notification."""
        self.session(session_id).contents = ScreenContents(rows, cursor, first_line)
        if notify:
            self._emit("screen", session_id, True)

    def prompt(self, session_id, mode, value=None):
        self._emit("prompt", session_id, (mode, value))

    def key(self, session_id, keystroke):
        self._emit("keys", session_id, keystroke)

    def set_variable(self, session_id, name, value):
        self.session(session_id).variables[name] = value
        self._emit("variable", (session_id, name), value)

    # -- focus ----------------------------------------------------------------------------------------------
    def focus(self, **kind):
        """One focus notification: application_active=bool, window=(id, status), selected_tab=id or session=id."""
        info = FocusInfo(**kind)
        if info.application_active is not None:
            self.app_active = info.application_active
        self._emit("focus", None, info)

    # -- iTerm2 quits, and starts again ---------------------------------------------------------------------
    def drop(self):
        """iTerm2 quits: every connection closes."""
        self.running = False
        for c in self.connections:
            c.closed.set()
        self.connections = []
        self.subscriptions = []

    def restart(self):
        self.running = True


class FocusInfo:
    """A FocusChangedNotification (api.proto): one of its `event` fields set; `window` is (window id, status)."""

    def __init__(self, application_active=None, window=None, selected_tab=None, session=None):
        self.application_active = application_active
        self.window = window
        self.selected_tab = selected_tab
        self.session = session
