/** Decorative icons of the catalogue (currentColor, hidden from assistive technology). */
const common = {
  width: 14,
  height: 14,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2.4,
  strokeLinecap: "round",
  strokeLinejoin: "round",
  "aria-hidden": true,
  focusable: false,
} as const;

export const LockIcon = () => (
  <svg {...common}>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </svg>
);

export const PlayIcon = () => (
  <svg {...common} fill="currentColor">
    <path d="M8 5v14l11-7z" />
  </svg>
);

export const ChevronIcon = () => (
  <svg {...common} className="icon-chevron">
    <path d="m9 6 6 6-6 6" />
  </svg>
);
