import { useEffect, useId, useRef, useState, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { Link, useRoute } from 'wouter';
import { useT } from '../i18n';
import { configuredSiteName } from '../lib/site';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

export function Button({
  variant = 'primary',
  busy,
  children,
  className,
  disabled,
  ...rest
}: { variant?: Variant; busy?: boolean } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="button"
      className={`btn btn-${variant}${className ? ` ${className}` : ''}`}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy ? <span className="spinner spinner-inline" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/** Sets the document title while the page is shown. */
export function useTitle(title: string | undefined) {
  const { t } = useT();
  useEffect(() => {
    const brand = configuredSiteName() ?? t('brand');
    document.title = title ? `${title} · ${brand}` : brand;
  }, [title, t]);
}

export function PageHeader({
  title,
  subtitle,
  actions,
  children,
  logo,
}: {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  /** An image before the title (an event's logo). */
  logo?: ReactNode;
}) {
  useTitle(title);
  return (
    <header className={logo ? 'page-header page-header-with-logo' : 'page-header'}>
      {logo}
      <div className="page-header-text">
        <h1>{title}</h1>
        {subtitle ? <p className="muted">{subtitle}</p> : null}
        {children}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </header>
  );
}

export function StatusBadge({ status, kind = 'eventStatus' }: { status: string; kind?: 'eventStatus' | 'registrationStatus' }) {
  const { t } = useT();
  return <span className={`badge badge-${status}`}>{t(`${kind}.${status}`, { defaultValue: status })}</span>;
}

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useT();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      className="btn btn-secondary"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        );
      }}
    >
      {copied ? t('actions.copied') : (label ?? t('actions.copy'))}
      <span className="sr-only" aria-live="polite">
        {copied ? t('actions.copied') : ''}
      </span>
    </button>
  );
}

/**
 * A confirmation step before a consequential action, in a native modal <dialog> (focus is trapped and
 * Escape closes it). `children` says what the action will do.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  variant = 'primary',
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  variant?: Variant;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useT();
  const ref = useRef<HTMLDialogElement>(null);
  // Several dialogs may be on one page: each names itself by its own heading.
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose} onCancel={onClose}>
      <h2 id={titleId}>{title}</h2>
      <div className="dialog-body">{children}</div>
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onClose}>
          {t('actions.cancel')}
        </Button>
        <Button variant={variant} busy={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}

/** Tabs as links (each tab has its own address, so reload and back keep the tab). */
export function TabNav({ label, tabs }: { label: string; tabs: { href: string; label: string }[] }) {
  return (
    <nav className="tabs" aria-label={label}>
      <ul>
        {tabs.map((tab) => (
          <TabLink key={tab.href} href={tab.href} label={tab.label} />
        ))}
      </ul>
    </nav>
  );
}

function TabLink({ href, label }: { href: string; label: string }) {
  const [active] = useRoute(href);
  return (
    <li>
      <Link href={href} className={active ? 'tab tab-active' : 'tab'} aria-current={active ? 'page' : undefined}>
        {label}
      </Link>
    </li>
  );
}
