import { useId, useState, type CSSProperties } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { useQuery } from "@tanstack/react-query";
import { eventPath } from "@/entities/event";
import { withoutScore } from "@/entities/spoilers";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useScoresHidden } from "@/session/spoilers";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { eventQueryOptions } from "../api/event";
import { useLiveEvents } from "../api/liveEvents";
import { useReading } from "../api/viewer";
import { addTile, largeTileIndex, MAX_TILES, MIN_TILES, planGrid, removeTile, type MultiviewLayout } from "./layout";
import { LiveEventList } from "./LiveEventList";
import { Tile, type PaywallComponent } from "./Tile";
import { useEventIds } from "./useEventIds";
import { useMultiviewKeys } from "./useMultiviewKeys";
import { useNarrowScreen } from "./useNarrowScreen";
import "./Multiview.css";

const LAYOUTS: readonly MultiviewLayout[] = ["grid", "focus"];

/** Which tile the sound comes from, said where everyone sees it and screen readers hear it. */
function SoundStatus({ ids, audible }: { ids: readonly string[]; audible: string | null }) {
  const { t } = useTranslation("watching");
  const event = useQuery({ ...eventQueryOptions(audible ?? "", useReading()), enabled: audible !== null }).data;
  const scoresHidden = useScoresHidden(audible);
  let text = "";
  if (audible !== null) {
    const title = event ? (scoresHidden ? withoutScore(event.title) : event.title) : "";
    text = t("multiview.sound.from", { number: ids.indexOf(audible) + 1, title });
  } else if (ids.length) {
    text = t("multiview.sound.off");
  }
  return (
    <p className="mv-sound" role="status">
      {text}
    </p>
  );
}

/** The tiles, the picker of live events and the controls of the layout, the sound and full view. */
function Multiview({ Paywall }: { Paywall: PaywallComponent }) {
  const { t } = useTranslation("watching");
  const live = useLiveEvents();
  const [ids, setIds] = useEventIds();
  const pickerId = useId();
  const [layout, setLayout] = useState<MultiviewLayout>("grid");
  const [pickerOpen, setPickerOpen] = useState(ids.length < MIN_TILES);
  // undefined: nobody chose yet, the first tile has the sound; null: no tile has it.
  const [chosenSound, setChosenSound] = useState<string | null | undefined>(undefined);
  const [fullView, setFullView] = useState<string | null>(null);

  const audible =
    chosenSound === undefined ? (ids[0] ?? null) : chosenSound && ids.includes(chosenSound) ? chosenSound : null;
  const promoted = fullView && ids.includes(fullView) ? fullView : null;
  const plan = promoted ? planGrid(1, layout) : planGrid(ids.length, layout, largeTileIndex(ids, audible));

  const toggleFullView = (id: string) => {
    if (promoted === id) return setFullView(null);
    setFullView(id);
    setChosenSound(id);
  };
  useMultiviewKeys(ids.length, promoted !== null, (action) => {
    if (action.kind === "leave-full-view") return setFullView(null);
    const id = ids[action.tile];
    setChosenSound(id);
    if (promoted) setFullView(id);
  });
  const add = (id: string) => {
    const next = addTile(ids, id);
    setIds(next);
    // The set is complete: make room for the pictures.
    if (next.length === MAX_TILES) setPickerOpen(false);
  };

  const gridStyle = {
    gridTemplateColumns: plan.columns,
    "--mv-aspect": plan.aspect,
    "--mv-rows": plan.rows,
  } as CSSProperties;
  return (
    <>
      <div className="mv-toolbar">
        <div className="mv-toolbar__layouts" role="group" aria-label={t("multiview.layout.label")}>
          {LAYOUTS.map((name) => (
            <button
              key={name}
              type="button"
              className="btn mv-toolbar__layout"
              aria-pressed={layout === name}
              onClick={() => setLayout(name)}
            >
              {t(`multiview.layout.${name}`)}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="btn"
          aria-expanded={pickerOpen}
          aria-controls={pickerId}
          onClick={() => setPickerOpen((open) => !open)}
        >
          {t(pickerOpen ? "multiview.picker.close" : "multiview.picker.open")}
        </button>
        <span className="mv-toolbar__count">
          {t("multiview.picker.chosen", { chosen: ids.length, max: MAX_TILES })}
        </span>
        <SoundStatus ids={ids} audible={audible} />
      </div>
      <section id={pickerId} className="mv-picker" aria-label={t("multiview.picker.title")} hidden={!pickerOpen}>
        <p className="mv-picker__hint">
          {t(ids.length >= MAX_TILES ? "multiview.picker.full" : "multiview.picker.need_more")}
        </p>
        <LiveEventList
          query={live}
          label={t("multiview.picker.title")}
          action={(event) => {
            const chosen = ids.includes(event.id);
            return (
              <button
                type="button"
                className={chosen ? "btn" : "btn btn--primary"}
                disabled={!chosen && ids.length >= MAX_TILES}
                aria-label={t(chosen ? "multiview.picker.remove" : "multiview.picker.add", { title: event.title })}
                onClick={() => (chosen ? setIds(removeTile(ids, event.id)) : add(event.id))}
              >
                {t(chosen ? "multiview.picker.remove_short" : "multiview.picker.add_short")}
              </button>
            );
          }}
        />
      </section>
      {ids.length > 0 && (
        <ul className="mv-grid" style={gridStyle} aria-label={t("multiview.tiles")}>
          {ids.map((id, index) => (
            <Tile
              key={id}
              id={id}
              number={index + 1}
              placement={promoted ? plan.tiles[0] : plan.tiles[index]}
              hidden={promoted !== null && promoted !== id}
              large={!promoted && plan.large === index}
              audible={audible === id}
              fullView={promoted === id}
              sharing={promoted === id ? 1 : ids.length}
              Paywall={Paywall}
              onListen={() => setChosenSound(id)}
              onToggleFullView={() => toggleFullView(id)}
              onRemove={() => setIds(removeTile(ids, id))}
              onSoundRefused={() =>
                setChosenSound((current) => (current === undefined || current === id ? null : current))
              }
            />
          ))}
        </ul>
      )}
    </>
  );
}

/** Narrow screens: the live events to pick one from (those of the address first), each leading to its page. */
function PickOne() {
  const { t } = useTranslation("watching");
  const localePath = useLocalePath();
  const live = useLiveEvents();
  const [ids] = useEventIds();
  return (
    <LiveEventList
      query={live}
      label={t("multiview.narrow.list")}
      first={ids}
      action={(event) => (
        <Link
          className="btn btn--primary"
          to={localePath(eventPath(event))}
          aria-label={t("multiview.narrow.watch", { title: event.title })}
        >
          {t("multiview.narrow.watch_short")}
        </Link>
      )}
    />
  );
}

/**
 * /multiview (?events=ID1,ID2,…): two to four live events side by side, each in a tile of its own
 * (./Tile) sized by the layout (2×2, or one large beside the others), the sound from one tile at a
 * time (a click or the keys 1–4), any tile in full view (Escape goes back); the set in the address,
 * to share it. On a phone-sized screen: the list to pick one event from instead.
 */
export function MultiviewPage({ Paywall }: { Paywall: PaywallComponent }) {
  const { t } = useTranslation("watching");
  useDocumentTitle(t("multiview.title"));
  const narrow = useNarrowScreen();
  return (
    <div className="page mv-page">
      <h1 className="page__title">{t("multiview.title")}</h1>
      <p className="mv-page__intro">{t(narrow ? "multiview.narrow.intro" : "multiview.intro")}</p>
      {narrow ? <PickOne /> : <Multiview Paywall={Paywall} />}
    </div>
  );
}
