// Electron main process entry: the desktop shell lives in ./desktop (the only place besides the
// preload that imports electron).
import './desktop/main';
