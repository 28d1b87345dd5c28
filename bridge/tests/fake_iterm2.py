"""A fake `iterm2` module: the parts of iTerm2's Python API the bridge uses, each behaving as the real library's
source says (the file it comes from is named at each fact), in front of a pretend iTerm2 (fake_iterm2_app.py).

`FakeIterm2()` is the module (pass it where the bridge takes `it`), one per "process": its handler table and cached
App are process-wide, as the library's are. Its `iterm` attribute is the pretend iTerm2 the test scripts.
`FakeIterm2(loop_style="2.10")` runs `run_until_complete` on the caller's event loop, as the library did up to 2.10;
the default runs a new loop per call, as it does since 2.11 (connection.py `Connection.run`).
"""
import asyncio
import enum
import os
import sys
import types

from fake_iterm2_app import FakeIterm, ScreenContents, until  # noqa: F401  (re-exported for tests)


class Keycode(enum.Enum):  # keyboard.py: the macOS virtual key codes (a few of them)
    ANSI_A = 0x00
    ANSI_C = 0x08
    RETURN = 0x24
    ESCAPE = 0x35
    ANSI_KEYPAD_ENTER = 0x4C


class Modifier(enum.Enum):  # keyboard.py, values from api.proto's Modifiers
    CONTROL = 1
    OPTION = 2
    COMMAND = 3
    SHIFT = 4
    FUNCTION = 5
    NUMPAD = 6


class Keystroke:
    """keyboard.py: keycode and modifiers are converted on each read, so a key code the Keycode enum does not name
    raises ValueError there (Keycode(n)), not when the keystroke arrives."""

    def __init__(self, characters, keycode, modifiers=()):
        self.characters = characters
        self.characters_ignoring_modifiers = characters
        self._keycode = keycode.value if isinstance(keycode, Keycode) else keycode
        self._modifiers = [m.value if isinstance(m, Modifier) else m for m in modifiers]

    @property
    def keycode(self):
        return Keycode(self._keycode)

    @property
    def modifiers(self):
        return list(map(Modifier, self._modifiers))


class AppVersionTooOld(Exception):
    pass


class SubscriptionException(Exception):
    pass


class FocusUpdateWindowChanged:
    """focus.py: `event` is a member of this enum, never an int; the class has no TERMINAL_WINDOW_* of its own."""

    class Reason(enum.Enum):
        TERMINAL_WINDOW_BECAME_KEY = 0
        TERMINAL_WINDOW_IS_CURRENT = 1
        TERMINAL_WINDOW_RESIGNED_KEY = 2

    def __init__(self, window_id, event):
        self.window_id = window_id
        self.event = event


class FocusUpdate:
    def __init__(self, application_active=None, window_changed=None, selected_tab_changed=None, active_session_changed=None):
        self.application_active = application_active
        self.window_changed = window_changed
        self.selected_tab_changed = selected_tab_changed
        self.active_session_changed = active_session_changed


def focus_update(info):
    """focus.py FocusMonitor.handle_proto: the notification as a FocusUpdate."""
    if info.application_active is not None:
        return FocusUpdate(application_active=types.SimpleNamespace(application_active=info.application_active))
    if info.window is not None:
        return FocusUpdate(window_changed=FocusUpdateWindowChanged(info.window[0], FocusUpdateWindowChanged.Reason(info.window[1])))
    if info.selected_tab is not None:
        return FocusUpdate(selected_tab_changed=types.SimpleNamespace(tab_id=info.selected_tab))
    if info.session is not None:
        return FocusUpdate(active_session_changed=types.SimpleNamespace(session_id=info.session))
    return FocusUpdate()


class _Auth:
    """auth.py: AppleScript through pyobjc's AppKit when present (gAppKitAvailable), else /usr/bin/osascript; and
    `applescript_auth_disabled()`, iTerm2 set to let any app connect without a cookie."""

    def __init__(self, iterm):
        self._iterm = iterm

    @property
    def gAppKitAvailable(self):  # noqa: N802  (the library's name)
        return self._iterm.applescript

    def applescript_auth_disabled(self):
        return self._iterm.cookies is None


class FakeIterm2(types.ModuleType):
    """The `iterm2` module."""

    def __init__(self, loop_style="2.11"):
        super().__init__("iterm2")
        self.iterm = FakeIterm()
        self.loop_style = loop_style
        self.__version__ = "2.99-fake"
        self.Keycode, self.Modifier, self.Keystroke = Keycode, Modifier, Keystroke
        self.FocusUpdateWindowChanged = FocusUpdateWindowChanged
        self.VariableScopes = enum.Enum("VariableScopes", "SESSION TAB WINDOW APP")
        self.capabilities = types.SimpleNamespace(AppVersionTooOld=AppVersionTooOld)
        # connection.py: callbacks run (then forgotten) when Connection.run ends; async_get_app adds invalidate_app.
        self.connection = types.SimpleNamespace(gDisconnectCallbacks=[])
        # notifications.py: ONE handler table for the process, {key: [callback, ...]}, kept across connections.
        handlers = {}
        self.notifications = types.SimpleNamespace(_get_handlers=lambda: handlers, SubscriptionException=SubscriptionException)
        # auth.py: a cookie from AppleScript (AppKit or /usr/bin/osascript); auth off: any app may connect.
        self.auth = _Auth(self.iterm)
        from fake_iterm2_objects import build  # noqa: E402  (the module's classes close over this instance)

        build(self)

    def run_until_complete(self, coro, retry=False):
        """connection.py `run_until_complete` → `Connection.run`. 2.10: `asyncio.get_event_loop()`, the caller's
        loop. 2.11 on: `asyncio.new_event_loop()` + `set_event_loop` each call, never restored: while it runs, no
        other loop runs. An exception from coro is printed and ends the process (`sys.exit(1)` in async_connect).
        The cookie is removed when the connection ends (`_remove_auth` in async_connect's finally), and the
        disconnect callbacks run."""
        if self.loop_style == "2.10":
            loop = asyncio.get_event_loop()
        else:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)

        async def main():
            connection = await self.Connection.async_create()
            try:
                await coro(connection)
            except Exception:  # noqa: BLE001
                sys.exit(1)
            finally:
                for var in ("ITERM2_COOKIE", "ITERM2_KEY"):
                    os.environ.pop(var, None)

        try:
            return loop.run_until_complete(main())
        finally:
            if self.loop_style != "2.10":
                loop.close()  # the library closes it only at the same Connection's next run; closed here for tidiness
                asyncio.set_event_loop(None)
            callbacks, self.connection.gDisconnectCallbacks = self.connection.gDisconnectCallbacks, []
            for callback in callbacks:
                callback()

    async def async_get_app(self, connection):
        """app.py: the App is cached for the process; a cached one is refreshed (on ITS connection), not rebuilt."""
        if self.App.instance is None:
            self.App.instance = await self.App.async_construct(connection)
            self.connection.gDisconnectCallbacks.append(self._invalidate_app)
        else:
            await self.App.instance.async_refresh()
        return self.App.instance

    def _invalidate_app(self):
        self.App.instance = None
