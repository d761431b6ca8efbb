import { useState } from 'react';
import { api, data } from '../../api/client';
import type { SplitSetting } from '../../api/types';
import { DataList, ItemList } from '../../components/data-list';
import { EmptyState, ErrorAlert, useAction } from '../../components/ui';

export function SupplierSettings({ smes: stored, loading, error, onSaved }: { smes: SplitSetting[]; loading: boolean; error: Error | undefined; onSaved: () => void }) {
  // What the person just chose shows at once; a failed save puts the stored value back.
  const [chosen, setChosen] = useState<Record<string, SplitSetting>>({});
  const save = useAction(async (setting: SplitSetting) => {
    setChosen((current) => ({ ...current, [setting.smeCompanyId]: setting }));
    try {
      await data(
        api.PUT('/api/commerce/split-settings/sme/{smeCompanyId}', {
          params: { path: { smeCompanyId: setting.smeCompanyId } },
          body: { autoAccept: setting.autoAccept, coverFees: setting.coverFees },
        }),
      );
    } catch (e) {
      setChosen(({ [setting.smeCompanyId]: _dropped, ...rest }) => rest);
      throw e;
    }
    onSaved();
  });
  const smes = stored.map((setting) => chosen[setting.smeCompanyId] ?? setting);
  return (
    <section className="panel" aria-labelledby="suppliers-title">
      <h2 id="suppliers-title">Suppliers</h2>
      <p className="small muted" style={{ marginTop: 0 }}>
        Auto-accept approves a supplier&rsquo;s Splits as they arrive; cover fees makes you pay the transfer fee.
      </p>
      <ErrorAlert error={save.error ?? (error && !loading ? error : null)} />
      <DataList
        resource={{ data: loading ? undefined : smes, error: undefined, loading, reload: onSaved }}
        empty={<EmptyState title="No suppliers yet">Suppliers appear once one bills you.</EmptyState>}
      >
        {(items) => (
          <ItemList items={items} itemKey={(setting) => setting.smeCompanyId} itemStyle={{ padding: '0.6rem 0' }}>
            {(setting) => (
              <>
                <strong>{setting.smeCompanyName}</strong>
                <div className="checks" style={{ marginTop: '0.3rem' }}>
                  <label className="check">
                    <input type="checkbox" checked={setting.autoAccept} disabled={save.busy} onChange={(e) => void save.run({ ...setting, autoAccept: e.target.checked })} />
                    Auto-accept
                  </label>
                  <label className="check">
                    <input type="checkbox" checked={setting.coverFees} disabled={save.busy} onChange={(e) => void save.run({ ...setting, coverFees: e.target.checked })} />
                    Cover fees
                  </label>
                </div>
              </>
            )}
          </ItemList>
        )}
      </DataList>
    </section>
  );
}
