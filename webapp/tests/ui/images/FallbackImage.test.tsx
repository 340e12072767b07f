import { afterEach, describe, expect, it } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { FallbackImage } from "@/ui/images/FallbackImage";
import { placeholderFor } from "@/ui/images/placeholders";

afterEach(() => {
  delete document.documentElement.dataset.theme;
});

describe("FallbackImage", () => {
  it("lazy-loads the image with its intrinsic size", () => {
    render(<FallbackImage src="/media/posters/a.svg" alt="Poster" fallback="banner" width={640} height={360} />);
    const img = screen.getByRole("img", { name: "Poster" });
    expect(img.getAttribute("src")).toBe("/media/posters/a.svg");
    expect([img.getAttribute("loading"), img.getAttribute("width"), img.getAttribute("height")]).toEqual([
      "lazy",
      "640",
      "360",
    ]);
  });

  it("stands in the theme's placeholder when there is no image or it fails to load", () => {
    document.documentElement.dataset.theme = "light";
    render(
      <FallbackImage
        src="/media/posters/broken.svg"
        alt="Poster"
        fallback="vertical_banner"
        width={360}
        height={540}
      />,
    );
    const img = screen.getByRole("img", { name: "Poster" });
    fireEvent.error(img);
    expect(img.getAttribute("src")).toBe(placeholderFor("vertical_banner", "light"));
    expect(img.getAttribute("data-placeholder")).toBe("vertical_banner");
  });

  it("switches placeholders with the theme", async () => {
    render(<FallbackImage src={null} alt="" fallback="generic" width={240} height={240} />);
    const img = document.querySelector("img")!;
    expect(img.getAttribute("src")).toBe(placeholderFor("generic", "dark"));
    await act(async () => {
      document.documentElement.dataset.theme = "light";
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(img.getAttribute("src")).toBe(placeholderFor("generic", "light"));
  });
});
