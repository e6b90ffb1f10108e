import { useMemo, useState } from 'react';
import { ErrorState, Loading } from '../../ui/states';
import { AUDIT_ACTIONS, AuditList, useAuditT } from '../shared/audit-list';
import type { TabProps } from './detail-types';
import { LoadMore, usePagedList } from './detail-shared';

/** The event's audit log: every organizer and admin action on it, newest first, "load more" paging. */
export default function AuditTab({ event }: TabProps) {
  const { t } = useAuditT();
  const [action, setAction] = useState('');
  const list = usePagedList(event.id, 'audit', '/events/{id}/audit', action ? { action: action as (typeof AUDIT_ACTIONS)[number] } : {});
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  if (list.isPending) return <Loading />;
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  return (
    <div className="stack">
      <p className="muted">{t('intro')}</p>
      <label className="audit-filter">
        <span>{t('filter')}</span>
        <select value={action} onChange={(e) => setAction(e.target.value)}>
          <option value="">{t('allActions')}</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {t(`actions.${a}`)}
            </option>
          ))}
        </select>
      </label>
      <AuditList entries={rows} />
      <LoadMore query={list} />
    </div>
  );
}
