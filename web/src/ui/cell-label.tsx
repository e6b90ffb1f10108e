/** A cell's column name, shown only where a `.rtable` turns into one card per row (phones). */
export function CellLabel({ label }: { label: string }) {
  return (
    <span className="cell-label" aria-hidden="true">
      {label}
    </span>
  );
}
