import { useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import type { FollowedItem } from "@/entities/followed";
import { useLocale } from "@/i18n/useLocalePath";
import { useCurrentUser } from "@/session/store";
import { FallbackImage } from "@/ui/images/FallbackImage";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { clubRef, useSaveFavoriteClub } from "../api/favoriteClub";
import { useCandidates } from "../api/identities";
import { ErrorState } from "../components/States";
import { continueTarget } from "../lib/returnPath";
import "../components/following.css";

/**
 * /club: the favourite club (update_profile clubList '{type}|{id}'). The favourite-club guard sends
 * viewers without one here; once chosen they continue to `?redirect=` or the home page.
 */
export default function ClubPage() {
  const { t } = useTranslation("following");
  const errorText = useErrorText();
  const locale = useLocale();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const user = useCurrentUser();
  const teams = useCandidates({ mediaType: "team" });
  const save = useSaveFavoriteClub();
  const [filter, setFilter] = useState("");
  useDocumentTitle(t("club.title"));

  const choose = (team: FollowedItem) =>
    save.mutate(
      { type: team.type, id: team.id },
      { onSuccess: () => navigate(continueTarget(params.get("redirect"), locale), { replace: true }) },
    );
  const needle = filter.trim().toLocaleLowerCase(locale);
  const shown = teams.data?.filter((team) => !needle || team.title.toLocaleLowerCase(locale).includes(needle));

  return (
    <section className="page following-page" aria-labelledby="club-title">
      <h1 id="club-title" className="page__title">
        {t("club.title")}
      </h1>
      <p className="following-page__intro">{t("club.intro")}</p>
      <label className="following-filter">
        <span>{t("club.filter")}</span>
        <input type="search" value={filter} onChange={(event) => setFilter(event.target.value)} />
      </label>
      {save.isError && (
        <p className="following-state following-state--error" role="alert">
          {t("club.saveFailed")} {errorText(save.error)}
        </p>
      )}
      {teams.isError ? (
        <ErrorState error={teams.error} onRetry={() => void teams.refetch()} />
      ) : !shown ? (
        <p role="status">{t("state.loading")}</p>
      ) : (
        <ul className="follow-grid" aria-label={t("club.title")}>
          {shown.map((team) => {
            const current = user?.favoriteClubId === clubRef(team.type, team.id);
            return (
              <li key={team.id} className="follow-tile follow-tile--logo">
                <FallbackImage
                  className="follow-tile__image"
                  src={team.imageUrl}
                  alt=""
                  fallback="generic"
                  width={240}
                  height={240}
                />
                <span className="follow-tile__title" dir="auto">
                  {team.title}
                </span>
                <button
                  type="button"
                  className={`btn follow-tile__toggle${current ? " btn--primary" : ""}`}
                  aria-pressed={current}
                  aria-label={t("club.chooseNamed", { name: team.title })}
                  disabled={save.isPending}
                  onClick={() => choose(team)}
                >
                  {current ? t("club.current") : t("club.choose")}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
