// `npm run dev`: the emulator, the demo bot and the playground. Filled in as those packages land.
console.log('boardbot: the emulator and the demo bot are not built yet; `npm test` runs the protocol suite.');
