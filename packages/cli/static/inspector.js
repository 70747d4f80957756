// Permafrost inspector: progressive enhancement only (every page works without it).
// Pan and zoom of relation graphs, confirmation of admin actions, the as-of date picker.

function panZoom(svg) {
  const start = svg.viewBox.baseVal;
  let box = { x: start.x, y: start.y, w: start.width, h: start.height };
  let drag = null;
  const apply = () => svg.setAttribute('viewBox', `${box.x} ${box.y} ${box.w} ${box.h}`);
  const scale = () => box.w / svg.getBoundingClientRect().width;
  svg.addEventListener('pointerdown', (e) => {
    if (e.target.closest('a')) return;
    drag = { x: e.clientX, y: e.clientY, box: { ...box } };
    svg.setPointerCapture(e.pointerId);
    svg.classList.add('dragging');
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const s = scale();
    box = { ...drag.box, x: drag.box.x - (e.clientX - drag.x) * s, y: drag.box.y - (e.clientY - drag.y) * s };
    apply();
  });
  const stop = () => {
    drag = null;
    svg.classList.remove('dragging');
  };
  svg.addEventListener('pointerup', stop);
  svg.addEventListener('pointercancel', stop);
  svg.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const f = e.deltaY > 0 ? 1.15 : 1 / 1.15;
      const r = svg.getBoundingClientRect();
      const px = box.x + ((e.clientX - r.left) / r.width) * box.w;
      const py = box.y + ((e.clientY - r.top) / r.height) * box.h;
      box = { x: px - (px - box.x) * f, y: py - (py - box.y) * f, w: box.w * f, h: box.h * f };
      apply();
    },
    { passive: false },
  );
  svg.addEventListener('dblclick', () => {
    box = { x: start.x, y: start.y, w: start.width, h: start.height };
    apply();
  });
}

document.addEventListener('DOMContentLoaded', () => {
  for (const svg of document.querySelectorAll('svg[data-pan-zoom]')) panZoom(svg);
  for (const form of document.querySelectorAll('form[data-confirm]'))
    form.addEventListener('submit', (e) => {
      // The message is our own fixed text (a data attribute rendered escaped), never member input.
      if (!window.confirm(form.dataset.confirm)) e.preventDefault();
    });
  for (const input of document.querySelectorAll('input[data-autosubmit]'))
    input.addEventListener('change', () => {
      if (input.value) input.form.submit();
    });
});
