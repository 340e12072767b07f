import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useIsAuthenticated } from "@/session/store";
import { CloseIcon, MenuIcon } from "../icons";
import { useDismiss } from "../useDismiss";
import { HomeLink } from "./HomeLink";
import { LocaleSwitcher } from "./LocaleSwitcher";
import { MyStuffNav } from "./myStuff";
import { PrimaryNav } from "./PrimaryNav";
import { SearchForm } from "./SearchForm";
import { SpoilerToggle } from "./SpoilerToggle";
import { ThemeToggle } from "./ThemeToggle";
import { UserMenu } from "./UserMenu";
import "./Header.css";

const MENU_ID = "site-menu";

/**
 * The full site header: logo and user menu on top, then a row with the navigation, search and
 * preferences. On narrow screens that row folds into a panel opened by the menu button. The
 * DOM order is the visual order, so keyboard focus follows what the eye sees.
 */
export function Header() {
  const { t } = useTranslation("common");
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  // A followed link (or any navigation) closes the panel, in the render that shows the new page.
  const [shownPathname, setShownPathname] = useState(pathname);
  if (shownPathname !== pathname) {
    setShownPathname(pathname);
    setOpen(false);
  }
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, menuRef, buttonRef);

  // Opening moves focus into the panel so keyboard users continue where the links are.
  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>("a, button, input, select")?.focus();
  }, [open]);

  return (
    <header className="site-header">
      <div className="site-header__bar">
        <button
          ref={buttonRef}
          type="button"
          className="icon-button site-header__menu-button"
          aria-expanded={open}
          aria-controls={MENU_ID}
          aria-label={open ? t("header.close_menu") : t("header.open_menu")}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? <CloseIcon /> : <MenuIcon />}
        </button>
        <HomeLink />
        <UserMenu />
        <div ref={menuRef} id={MENU_ID} className="site-header__menu" data-open={open}>
          <PrimaryNav />
          <MyStuffNav />
          <SearchForm />
          <div className="site-header__prefs">
            <SpoilerToggle />
            <LocaleSwitcher />
            <ThemeToggle />
          </div>
          <PanelSignUp />
        </div>
      </div>
    </header>
  );
}

/** Phones have no room for Sign up beside Sign in in the bar; the panel offers it instead. */
function PanelSignUp() {
  const { t } = useTranslation("common");
  const localePath = useLocalePath();
  if (useIsAuthenticated()) return null;
  return (
    <Link className="btn btn--primary site-header__panel-sign-up" to={localePath("/auth/sign-up")}>
      {t("user.sign_up")}
    </Link>
  );
}

/**
 * The slim header of sign-in, account and payment pages: logo, spoiler-free mode (which says it
 * is on, on every page) and language.
 */
export function SlimHeader() {
  return (
    <header className="site-header site-header--slim">
      <div className="site-header__bar">
        <HomeLink />
        <div className="site-header__prefs">
          <SpoilerToggle />
          <LocaleSwitcher />
        </div>
      </div>
    </header>
  );
}
