import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import type { FollowedItem } from "@/entities/followed";
import { splitLocalePath } from "@/i18n/locales";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useIsAuthenticated, useSession } from "@/session/store";
import { useToggleFollow } from "./useToggleFollow";
import "./FollowButton.css";

/** A plus to follow, a tick once followed: the state shows in the shape, not only the colour. */
function StateIcon({ followed }: { followed: boolean }) {
  return (
    <svg
      className="follow-button__icon"
      width={18}
      height={18}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {followed ? <path d="m5 12.5 4.5 4.5L19 7.5" /> : <path d="M12 5v14M5 12h14" />}
    </svg>
  );
}

/**
 * Follow / Following for a league, category or team, in its page's header. Signed in, it
 * toggles the follow at once (rolled back with a toast when the server refuses); the state is
 * the session's followed items, so every page agrees. Signed out, it leads to sign-in and back.
 */
export function FollowButton({ item }: { item: FollowedItem }) {
  const { t } = useTranslation("common");
  const localePath = useLocalePath();
  const { pathname, search } = useLocation();
  const signedIn = useIsAuthenticated();
  const followed = useSession((state) => item.id in state.followed);
  const toggle = useToggleFollow();

  if (!signedIn) {
    const returnTo = splitLocalePath(pathname).path + search;
    return (
      <Link
        className="btn follow-button"
        to={localePath(`/auth/login/?redirect=${encodeURIComponent(returnTo)}`)}
        aria-label={t("follow.sign_in_to_follow", { name: item.title })}
      >
        <StateIcon followed={false} />
        {t("follow.follow")}
      </Link>
    );
  }
  return (
    <button
      type="button"
      className={`btn follow-button${followed ? " btn--primary follow-button--on" : ""}`}
      aria-pressed={followed}
      aria-label={
        followed ? t("follow.unfollow_named", { name: item.title }) : t("follow.follow_named", { name: item.title })
      }
      disabled={toggle.isPending}
      onClick={() => toggle.mutate({ item, follow: !followed })}
    >
      <StateIcon followed={followed} />
      {followed ? t("follow.following") : t("follow.follow")}
    </button>
  );
}
