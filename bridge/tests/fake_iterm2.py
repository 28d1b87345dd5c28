"""A fake `iterm2` module: the parts of iTerm2's Python API the bridge uses, driven by a test script.

`FakeIterm2()` is the module (pass it where the bridge takes `it`); its `iterm` attribute is the pretend iTerm2
that the test scripts: sessions, screens, prompt events, keystrokes, variables, focus, the connection dropping.
Monitors are async context managers whose async_get() returns the scripted events, as iTerm2's do.
"""
import asyncio
import enum
import types

#: Scheduler turns a test waits for the bridge to react before it fails (no wall-clock timing).
MAX_TURNS = 5000


async def until(predicate, what):
    for _ in range(MAX_TURNS):
        if predicate():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"gave up waiting for {what}")


class Keycode(enum.Enum):
    ANSI_C = 0x08
    ANSI_A = 0x00
    RETURN = 0x24
    ESCAPE = 0x35
    ANSI_KEYPAD_ENTER = 0x4C


class Modifier(enum.Enum):
    CONTROL = 1
    OPTION = 2
    COMMAND = 3
    SHIFT = 4
    FUNCTION = 5
    NUMPAD = 6


class Keystroke:
    def __init__(self, characters, keycode, modifiers=()):
        self.characters = characters
        self.characters_ignoring_modifiers = characters
        self.keycode = keycode
        self.modifiers = list(modifiers)


class AppVersionTooOld(Exception):
    pass


class Size:
    def __init__(self, width, height):
        self.width, self.height = width, height


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


class ScreenContents:
    """Rows of text and a cursor; `first_line` is the absolute number of the screen's first line, as iTerm2 counts."""

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


class Monitor:
    """An async context manager subscribed (registered with the fake iTerm2) while inside `async with`."""

    kind = "?"

    def __init__(self, iterm, key=None):
        self.iterm = iterm
        self.key = key
        self.queue = asyncio.Queue()

    async def __aenter__(self):
        self.iterm.subscribe(self)
        return self

    async def __aexit__(self, *exc):
        self.iterm.unsubscribe(self)

    async def async_get(self):
        item = await self.queue.get()
        if isinstance(item, Exception):
            raise item
        return item


class Session:
    def __init__(self, iterm, session_id, name, cols=80, rows=24):
        self.iterm = iterm
        self.session_id = session_id
        self.name = name
        self.grid_size = Size(cols, rows)
        self.variables = {"columns": cols}
        self.contents = ScreenContents([""] * rows, (0, 0))
        self.sent_text = []
        self.activated = []

    async def async_get_variable(self, name):
        return self.variables.get(name)

    async def async_get_screen_contents(self):
        return self.contents

    def get_screen_streamer(self, want_contents=True):
        session = self

        class ScreenStreamer(Monitor):
            kind = "screen"

            async def async_get(self):
                await super().async_get()
                return session.contents if want_contents else None

        return ScreenStreamer(self.iterm, self.session_id)

    async def async_send_text(self, text, suppress_broadcast=False):
        self.sent_text.append((text, suppress_broadcast))

    async def async_activate(self, select_tab=True, order_window_front=True):
        self.activated.append({"select_tab": select_tab, "order_window_front": order_window_front})


class Tab:
    def __init__(self, tab_id, sessions):
        self.tab_id = tab_id
        self.sessions = sessions
        self.current_session = sessions[0] if sessions else None


class Window:
    def __init__(self, window_id, tabs):
        self.window_id = window_id
        self.tabs = tabs
        self.current_tab = tabs[0] if tabs else None


class App:
    instance = None

    def __init__(self, iterm):
        self.iterm = iterm
        self.app_active = True
        self.current_terminal_window = None
        self.refreshes = 0
        self.activations = []

    @property
    def terminal_windows(self):
        return self.iterm.windows

    async def async_refresh(self):
        self.refreshes += 1

    async def async_activate(self, raise_all_windows=True, ignoring_other_apps=False):
        self.activations.append({"raise_all_windows": raise_all_windows, "ignoring_other_apps": ignoring_other_apps})

    async def async_refresh_focus(self):
        if self.iterm.dropped.is_set():
            raise ConnectionError("iTerm2 went away")

    def get_window_by_id(self, window_id):
        return next((w for w in self.iterm.windows if w.window_id == window_id), None)

    def get_tab_by_id(self, tab_id):
        return next((t for w in self.iterm.windows for t in w.tabs if t.tab_id == tab_id), None)

    def get_session_by_id(self, session_id):
        return next((s for w in self.iterm.windows for t in w.tabs for s in t.sessions if s.session_id == session_id), None)


class Connection:
    def __init__(self, iterm):
        self.iterm = iterm
        self.websocket = types.SimpleNamespace(wait_closed=iterm.dropped.wait)


class FakeIterm:
    """The pretend iTerm2 a test scripts."""

    def __init__(self, module):
        self.module = module
        self.windows = []
        self.monitors = []
        self.dropped = asyncio.Event()
        self.app = App(self)
        self.prompt_modes_supported = True

    # -- what the bridge subscribed to
    def subscribe(self, monitor):
        self.monitors.append(monitor)

    def unsubscribe(self, monitor):
        if monitor in self.monitors:
            self.monitors.remove(monitor)

    def subscribed(self, kind, key=None):
        return [m for m in self.monitors if m.kind == kind and (key is None or m.key == key)]

    async def until_subscribed(self, kind, key=None):
        await until(lambda: self.subscribed(kind, key), f"a {kind} monitor for {key}")

    def _emit(self, kind, key, item):
        monitors = self.subscribed(kind, key)
        assert monitors, f"nobody watches {kind} {key}"
        for m in monitors:
            m.queue.put_nowait(item)

    # -- layout
    def add_window(self, window_id, *sessions):
        """A window with one tab holding `sessions` (Session objects or (id, name) pairs)."""
        made = [s if isinstance(s, Session) else Session(self, *s) for s in sessions]
        window = Window(window_id, [Tab(f"tab-{window_id}", made)])
        self.windows.append(window)
        if self.app.current_terminal_window is None:
            self.app.current_terminal_window = window
        return made

    def session(self, session_id):
        return self.app.get_session_by_id(session_id)

    def layout_changed(self):
        self._emit("layout", None, True)

    def new_session(self, window_id, session_id, name):
        window = self.app.get_window_by_id(window_id)
        s = Session(self, session_id, name)
        window.tabs.append(Tab(f"tab-{session_id}", [s]))
        self._emit("new_session", None, types.SimpleNamespace(session_id=session_id))
        return s

    def terminate(self, session_id):
        for w in self.windows:
            for t in w.tabs:
                t.sessions = [s for s in t.sessions if s.session_id != session_id]
            w.tabs = [t for t in w.tabs if t.sessions]
        self._emit("terminate", None, session_id)

    # -- per session
    def show(self, session_id, rows, cursor, first_line=0, notify=True):
        """The session's screen changes; notify=False: iTerm2 dropped the notification (it came mid-fetch)."""
        s = self.session(session_id)
        s.contents = ScreenContents(rows, cursor, first_line)
        if notify:
            self._emit("screen", session_id, True)

    def prompt(self, session_id, mode, value=None):
        self._emit("prompt", session_id, (mode, value))

    def key(self, session_id, keystroke):
        self._emit("keys", session_id, keystroke)

    def set_variable(self, session_id, name, value):
        self.session(session_id).variables[name] = value
        self._emit("variable", (session_id, name), value)

    # -- focus
    def focus(self, **kind):
        self._emit("focus", None, FocusUpdate(**kind))

    def drop(self):
        """iTerm2 quits: the connection closes."""
        self.dropped.set()


class FocusUpdate:
    def __init__(self, application_active=None, window_changed=None, selected_tab_changed=None, active_session_changed=None):
        self.application_active = types.SimpleNamespace(application_active=application_active) if application_active is not None else None
        self.window_changed = types.SimpleNamespace(window_id=window_changed[0], event=window_changed[1]) if window_changed else None
        self.selected_tab_changed = types.SimpleNamespace(tab_id=selected_tab_changed) if selected_tab_changed else None
        self.active_session_changed = types.SimpleNamespace(session_id=active_session_changed) if active_session_changed else None


class FocusUpdateWindowChanged:
    TERMINAL_WINDOW_BECAME_KEY = 0
    TERMINAL_WINDOW_IS_CURRENT = 1
    TERMINAL_WINDOW_RESIGNED_KEY = 2


class FakeIterm2(types.ModuleType):
    """The `iterm2` module."""

    def __init__(self):
        super().__init__("iterm2")
        iterm = FakeIterm(self)
        self.iterm = iterm
        self.__version__ = "2.99-fake"
        self.Keycode = Keycode
        self.Modifier = Modifier
        self.FocusUpdateWindowChanged = FocusUpdateWindowChanged
        self.VariableScopes = enum.Enum("VariableScopes", "SESSION TAB WINDOW APP")
        self.App = App
        self.connection = Connection(iterm)
        self.capabilities = types.SimpleNamespace(AppVersionTooOld=AppVersionTooOld)

        class Mode(enum.Enum):
            PROMPT = 0
            COMMAND_START = 1
            COMMAND_END = 2

        class PromptMonitor(Monitor):
            kind = "prompt"

            def __init__(self, connection, session_id, modes=(Mode.PROMPT,)):
                if list(modes) != [Mode.PROMPT] and not iterm.prompt_modes_supported:
                    raise AppVersionTooOld("only PROMPT")
                super().__init__(iterm, session_id)
                self.modes = list(modes)

            async def async_get(self):
                mode, value = await super().async_get()
                return (mode, value) if iterm.prompt_modes_supported else (Mode.PROMPT, None)

        PromptMonitor.Mode = Mode
        self.PromptMonitor = PromptMonitor

        def monitor(kind, keyed=False):
            class M(Monitor):
                def __init__(self, connection, session=None):
                    super().__init__(iterm, session if keyed else None)

            M.kind = kind
            return M

        self.LayoutChangeMonitor = monitor("layout")
        self.NewSessionMonitor = monitor("new_session")
        self.SessionTerminationMonitor = monitor("terminate")
        self.KeystrokeMonitor = monitor("keys", keyed=True)

        class FocusMonitor(Monitor):
            kind = "focus"

            def __init__(self, connection):
                super().__init__(iterm)

            async def async_get_next_update(self):
                return await self.async_get()

        self.FocusMonitor = FocusMonitor

        class VariableMonitor(Monitor):
            kind = "variable"

            def __init__(self, connection, scope, name, identifier):
                super().__init__(iterm, (identifier, name))

        self.VariableMonitor = VariableMonitor

    async def async_get_app(self, connection):
        if self.App.instance is None:
            self.App.instance = self.iterm.app
        return self.App.instance

    def run_until_complete(self, coro, retry=False):
        asyncio.get_event_loop().run_until_complete(coro(self.connection))
