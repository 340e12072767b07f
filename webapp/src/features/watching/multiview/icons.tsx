import { Icon } from "@/ui/icons";

/** Multiview's own icons (decorative: the control beside or around one carries the words). */
export const SoundIcon = () => (
  <Icon size={16}>
    <path d="M4 9v6h4l5 4V5L8 9z" />
    <path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12" />
  </Icon>
);

export const ExpandIcon = () => (
  <Icon size={16}>
    <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
  </Icon>
);

export const ShrinkIcon = () => (
  <Icon size={16}>
    <path d="M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" />
  </Icon>
);
