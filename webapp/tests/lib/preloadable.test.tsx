import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import { Suspense, useState } from "react";
import { preloadable } from "@/lib/preloadable";

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

function Host({ code }: { code: ReturnType<typeof preloadable<{ name: string }>> }) {
  const [Component] = useState(code.current);
  return (
    <Suspense fallback={<p>waiting</p>}>
      <Component name="Ada" />
    </Suspense>
  );
}

describe("preloadable", () => {
  it("renders the component itself, without suspending, once preloaded", async () => {
    const code = preloadable(() => Promise.resolve(Greeting));
    await code.preload();
    expect(code.current()).toBe(Greeting);
    render(<Host code={code} />);
    expect(screen.getByText("Hello Ada")).toBeTruthy();
    expect(screen.queryByText("waiting")).toBeNull();
  });

  it("loads on demand when nothing preloaded it, suspending meanwhile", async () => {
    const load = vi.fn(() => Promise.resolve(Greeting));
    const code = preloadable(load);
    render(<Host code={code} />);
    expect(screen.getByText("waiting")).toBeTruthy();
    expect(await screen.findByText("Hello Ada")).toBeTruthy();
    expect(load).toHaveBeenCalledOnce();
  });

  it("fetches the code once however often it is asked for", async () => {
    const load = vi.fn(() => Promise.resolve(Greeting));
    const code = preloadable(load);
    await Promise.all([code.preload(), code.preload()]);
    await code.preload();
    expect(load).toHaveBeenCalledOnce();
  });

  it("never rejects a preload, and tries again after a failed one", async () => {
    const load = vi.fn<() => Promise<typeof Greeting>>().mockRejectedValueOnce(new TypeError("Failed to fetch"));
    load.mockResolvedValueOnce(Greeting);
    const code = preloadable(load);
    await expect(code.preload()).resolves.toBeUndefined();
    expect(code.current()).not.toBe(Greeting);
    await code.preload();
    expect(code.current()).toBe(Greeting);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
