import { create } from 'zustand';
import { keptChoice } from './kept-choice';

// Avatars, covers and badges in the corpus are URLs on the platform's image hosts: fetching one
// tells that host which profile the analyst is looking at. So they are off until the analyst turns
// them on. The choice is a per-machine preference kept in localStorage (the desktop app keeps it
// in its profile under the data dir; a browser keeps it per address).
// Storage that refuses (private mode, a locked-down profile) reads as off: the safe default.
const kept = keptChoice<'on' | 'off'>('skein.remoteImages', ['on', 'off'], 'off');
const POLICY_ID = 'skein-local-images-only';

/**
 * With remote images off, a second Content-Security-Policy (a meta tag) allows images only from the
 * page itself, so nothing can reach an image host even if a component forgets the setting. Policies
 * only add up: lifting this one takes a reload of the page, which the setting does.
 */
export function applyImagePolicy(remoteImages: boolean): void {
  if (remoteImages || document.getElementById(POLICY_ID)) return;
  const meta = document.createElement('meta');
  meta.id = POLICY_ID;
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = "img-src 'self' data: blob:";
  document.head.appendChild(meta);
}

/** True when the stricter image policy is in force in this page (turning images on must reload). */
export function imagePolicyInForce(): boolean {
  return document.getElementById(POLICY_ID) !== null;
}

interface RemoteImagesState {
  /** Load avatars, covers and media from the hosts their URLs name. */
  enabled: boolean;
  setEnabled(enabled: boolean): void;
}

export const useRemoteImages = create<RemoteImagesState>((set) => ({
  enabled: kept.read() === 'on',
  setEnabled(enabled) {
    kept.write(enabled ? 'on' : 'off');
    set({ enabled });
    applyImagePolicy(enabled);
  },
}));
