// The editor at 80x24, with a short Esc timeout (as defaults.vim sets): the session of shell-fullscreen-vim.mjs.
import larger from './shell-fullscreen-vim.mjs';

export default {
  ...larger,
  name: 'shell-fullscreen-vim-80x24',
  cols: 80,
  rows: 24,
  env: { VIMINIT: 'set nocompatible ttimeout ttimeoutlen=50' },
};
