import { REQUIRED_CLASS } from './FieldFrame';
import { useRef } from 'react';
import { format } from '../i18n/format';

export interface UploadedFileView {
  id: string;
  url: string;
  originName: string;
  extension: string;
}

interface FileUploadProps {
  id: string;
  label: string;
  files: readonly UploadedFileView[];
  /** How many files the field takes (licence 10, GTC and logo 1). */
  max: number;
  /** The `accept` attribute: '.pdf,.png,…' plus MIME types. */
  accept: string;
  busy?: boolean;
  error?: string;
  hint?: string;
  required?: boolean;
  /** Show image files as thumbnails (the logo). */
  preview?: boolean;
  labels: { choose: string; uploading: string; remove: string; count: string };
  /** The person picked files; the owner checks and uploads them. */
  onFiles: (files: File[]) => void;
  onRemove: (id: string) => void;
}

/** A file field: a real file input behind a button-like label, the uploaded files with remove buttons. */
export function FileUpload({ id, label, files, max, accept, busy, error, hint, required, preview, labels, onFiles, onRemove }: FileUploadProps) {
  const input = useRef<HTMLInputElement>(null);
  const full = files.length >= max;
  const described = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field file-upload" role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className={required ? `field-label ${REQUIRED_CLASS}` : 'field-label'}>
        {label}
      </span>
      <div className="file-upload-row">
        <label className={`button secondary file-upload-button${full || busy ? ' disabled' : ''}`} htmlFor={id}>
          {busy ? labels.uploading : labels.choose}
        </label>
        <input
          ref={input}
          id={id}
          className="visually-hidden"
          type="file"
          accept={accept}
          multiple={max > 1}
          // aria-disabled, not disabled: a disabled input would drop the keyboard focus to the page while it uploads.
          aria-disabled={full || busy || undefined}
          aria-describedby={described}
          aria-invalid={error ? true : undefined}
          onClick={(event) => (full || busy) && event.preventDefault()}
          onChange={(event) => {
            const picked = Array.from(event.target.files ?? []);
            // Cleared so that picking the same file again after removing it fires a change.
            event.target.value = '';
            if (picked.length) onFiles(picked);
          }}
        />
        <span className="hint file-upload-count">{format(labels.count, { n: files.length, max })}</span>
      </div>
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {files.length > 0 && (
        <ul className="file-list">
          {files.map((file) => (
            <li key={file.id} className="file-item">
              {preview && /^(png|jpe?g)$/i.test(file.extension) ? (
                <img className="file-thumb" src={file.url} alt="" width={58} height={32} />
              ) : (
                <span className="file-ext" aria-hidden="true">{file.extension.toUpperCase()}</span>
              )}
              <a href={file.url} target="_blank" rel="noopener" className="file-name">
                {file.originName}
              </a>
              <button type="button" className="icon-button file-remove" aria-label={format(labels.remove, { name: file.originName })} onClick={() => onRemove(file.id)}>
                <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p id={`${id}-error`} className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
