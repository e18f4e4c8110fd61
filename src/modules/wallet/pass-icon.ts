/** Wallet shows a pass only with an icon: plain squares in the house colour, at 1x (29 px) and 2x (58 px). */
export const PASS_ICONS: Readonly<Record<string, Buffer>> = Object.freeze({
  'icon.png': Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAB0AAAAdCAIAAADZ8fBYAAAAJklEQVR42mOQ13KhBWIYNXfU3FFzR80dNXfU3FFzR80dNXdQmQsA49PPRf9WIN0AAAAASUVORK5CYII=',
    'base64',
  ),
  'icon@2x.png': Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAADoAAAA6CAIAAABu2d1/AAAARklEQVR42u3OQQkAAAgEsGvi3xz2z2SOg8ECLLNXJLq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6PR6IvT0+tnC3uwAAAABJRU5ErkJggg==',
    'base64',
  ),
});
