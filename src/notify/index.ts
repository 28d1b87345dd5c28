// Notifications: the policy (Notifier) and the channels it delivers to. See notifier.ts for the rules.
export type { Notification, NotifyChannel, NotifyEvent, NotifyKind, PaneFacts } from './types.js';
export { NOTIFY_KINDS } from './types.js';
export { Notifier, SUPPRESS_REASONS, type NotifierOptions, type NotifyResult, type SuppressReason } from './notifier.js';
export { channelsFromConfig, type ChannelOptions } from './channels.js';
export { desktopChannel, type DesktopOptions } from './desktop.js';
export { webhookChannel, type WebhookFormat, type WebhookOptions } from './webhook.js';
export { bellChannel, bellBytes, type PaneWrite } from './bell.js';
export { commandChannel, commandEnv } from './command-hook.js';
export { notificationFor } from './text.js';
export type { ChannelHealth } from './delivery.js';
