import { useEffect, useRef, useState } from 'react';
import { useImportFiles } from '../api/import';
import { navigate } from '../router';

/** Files dropped anywhere on the window are imported (Settings → Data shows the progress). */
export function WindowDrop() {
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  const { importFiles } = useImportFiles();
  const latest = useRef(importFiles);
  latest.current = importFiles;
  useEffect(() => {
    const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth.current++;
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    };
    const overHandler = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e) || e.defaultPrevented) {
        depth.current = 0;
        setOver(false);
        return;
      }
      e.preventDefault();
      depth.current = 0;
      setOver(false);
      navigate('/settings');
      void latest.current(Array.from(e.dataTransfer?.files ?? []));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overHandler);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overHandler);
      window.removeEventListener('drop', drop);
    };
  }, []);
  return over ? <div className="window-drop">Drop to import into the corpus</div> : null;
}
