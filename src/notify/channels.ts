// The channels notify.* asks for, built once at daemon start.
import type { NotifyConfig } from '../config/config.js';
import { bellChannel, type PaneWrite } from './bell.js';
import { commandChannel } from './command-hook.js';
import { desktopChannel, type DesktopOptions } from './desktop.js';
import type { NotifyChannel } from './types.js';
import { webhookChannel, type WebhookFormat, type WebhookOptions } from './webhook.js';

export interface ChannelOptions {
  /** How bell bytes reach a pane's `run` wrapper; without it the bell channel is off. */
  paneWrite?: PaneWrite;
  desktop?: DesktopOptions;
  webhook?: WebhookOptions;
  /** A configured channel that cannot work here (no notify-send/osascript, no way to reach panes). */
  onUnavailable?: (channel: string, why: string) => void;
}

export function channelsFromConfig(cfg: NotifyConfig, opts: ChannelOptions = {}): NotifyChannel[] {
  const out: NotifyChannel[] = [];
  if (cfg.desktop) {
    const ch = desktopChannel(opts.desktop);
    if (ch) out.push(ch);
    else opts.onUnavailable?.('desktop', 'neither notify-send nor osascript is on PATH');
  }
  if (cfg.terminal_bell) {
    if (opts.paneWrite) out.push(bellChannel(opts.paneWrite));
    else opts.onUnavailable?.('bell', 'no route to the panes\' terminals');
  }
  if (cfg.webhook_url) {
    const timeoutMs = opts.webhook?.timeoutMs ?? (cfg.webhook_timeout_s ? cfg.webhook_timeout_s * 1000 : undefined);
    out.push(webhookChannel(cfg.webhook_url, cfg.webhook_format as WebhookFormat, { ...opts.webhook, ...(timeoutMs ? { timeoutMs } : {}) }));
  }
  if (cfg.command) out.push(commandChannel(cfg.command, cfg.command_states ?? []));
  return out;
}
