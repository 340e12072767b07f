/** The Touchline mark (the favicon's "T" on the pitch-green accent); decorative next to the name. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg className="logo-mark" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#0f1624" />
      <path d="M7 10h18v3h-7.5v12h-3V13H7z" fill="#3ddc84" />
    </svg>
  );
}
