# Lo que comparten todas las escenas (src/shell.rs), el panel de PyTorch (src/code_panel.rs),
# compartir (src/share_panel.rs, src/class_link.rs), guardar en el navegador (src/storage.rs), la
# página que se muestra tras un fallo (src/crash.rs) y las páginas de la app (src/app.rs, src/more.rs).

## El marco de una escena (src/shell.rs)

shell-skip = Saltar a la animación
shell-run-stopped = Ejecución detenida por otro cambio
shell-run-cancelled = Cancelada
shell-cancelled = cancelado
shell-no-such-step = ese paso no existe
shell-link-no-lesson = Este enlace pide una lección que esta escena no tiene ({ $characters ->
        [one] { $characters } carácter
       *[other] { $characters } caracteres
    }); no se cambió nada.
shell-link-no-step = Este enlace pide un paso que la lección no tiene (tiene { $steps }): empieza en el paso 1.
shell-lesson-not-played = No se pudo reproducir esta lección: { $error }.
shell-script-unloaded = # No se escribió: { $error }. Para volver a intentarlo, cierra el panel y ábrelo de nuevo.
shell-script-writing = # Escribiendo el script…

## Los paneles que puede ocultar un enlace para la clase

class-hide-code = panel de PyTorch
class-hide-settings = tamaños y ajustes
class-hide-learn = controles de aprendizaje
class-hide-share = barra para compartir

## El panel de PyTorch (src/code_panel.rs)

code-title = PyTorch: los mismos números en Python
code-hint = Ejecútalo con PyTorch: construye estos tensores (a partir de la semilla cuando la semilla los da, bit a bit) e imprime la salida, la pérdida y cada .grad que se muestra aquí. El cuaderno tiene el mismo código por pasos, cada uno con lo que la escena dice de él.
code-copy = Copiar código
code-download = Descargar cuaderno
code-cancel = Cancelar
code-writing-file = Escribiendo el archivo
code-pytorch-code = Código de PyTorch
code-writing-script = Escribiendo el script con todos los números, en segundo plano…
code-writing-notebook = Escribiendo el cuaderno con todos los números, en segundo plano…
code-copied = Copiado.
code-not-copied = No se copió: { $error }.
code-select = Selecciona el código y cópialo.
code-not-downloaded = No se descargó: { $error }.
code-downloaded = Se descargó { $name }.
code-download-refused = El navegador rechazó la descarga.
code-no-background-copy = este navegador no puede copiar un archivo escrito en segundo plano
code-refused = el navegador lo rechazó

## Compartir (src/share_panel.rs)

share-label = Compartir
share-copy-link = Copiar enlace
share-export = Exportar archivo
share-import = Importar archivo
share-link = Enlace a esta escena{" "}
share-copied = Copiado.
share-select = Selecciona el enlace y cópialo.
share-too-large = Esta escena es demasiado grande para un enlace ({ $size }; un enlace admite como máximo 2 MiB): Exportar archivo la guarda completa.
share-long = Este enlace ocupa { $size }; las aplicaciones de correo y de chat pueden cortarlo, así que Exportar archivo es más seguro.
share-download-refused = el navegador rechazó la descarga
share-not-text = no es un archivo de texto
share-opened = { $from ->
        [link] Esta escena proviene de un enlace.
        [file] Esta escena proviene de un archivo.
       *[lesson] Esta escena proviene de una lección.
    }{" "}
share-kept = Tu propio trabajo se conserva:{" "}
share-back = Volver a mi trabajo
share-refused = { $from ->
        [link] No se pudo abrir este enlace
        [file] No se pudo abrir este archivo
        [export] No se pudo exportar
        [lesson] No se pudo abrir esta lección
        [saved-work] No se pudo abrir el trabajo guardado
       *[other] No se pudo abrir
    }: { $error }. No se cambió nada.
share-elsewhere = Esta escena cambió en otra pestaña, y esta pestaña muestra ahora ese trabajo. Tu propio trabajo de esta pestaña se conserva:{" "}
share-restored = Tu propio trabajo está de vuelta.
share-unreadable = No se pudo leer tu trabajo guardado de esta escena ({ $error }). Se conserva en este navegador con la clave { $key }.unreadable; la escena empieza desde su primer ejemplo.{" "}
share-download-it = Descargarlo
share-unsaved = No se guardó: { $error } — exportar a un archivo conserva tu trabajo.{" "}

## Un enlace para la clase (src/class_link.rs)

class-title = Enlace para la clase
class-hide = Ocultar
class-present = Abrir en modo proyección
class-copy = Copiar enlace para la clase
class-link = Enlace para la clase{" "}
class-too-large = Esta escena es demasiado grande para un enlace: Exportar archivo la guarda completa.

## Por qué no se guardó o no se abrió el trabajo (src/storage.rs)

save-no-window = no hay ventana
save-not-allowed = este navegador no permite que rowflow guarde nada aquí
save-full-needs = el almacenamiento de este navegador está lleno (esta escena necesita { $size })
save-full = el almacenamiento de este navegador está lleno
save-refused = el navegador se negó a guardarlo
save-crashed = hizo que rowflow se detuviera por un fallo al abrirse
save-other-tab = esta escena cambió en otra pestaña, y { $error }
save-other-tab-unreadable = esta escena se guardó en otra pestaña en un formato que esta pestaña no puede leer ({ $error }), así que aquí no se guarda nada encima; recarga esta pestaña para abrirla
save-not-kept-aside = { $error }; no se pudo apartar ({ $reason }), así que no se guarda nada encima
save-gone = ya no está
save-no-longer-reads = ya no se puede leer como esta escena ({ $error }); sigue en este navegador con la clave { $key }
save-not-set-aside = no se pudo apartar primero tu propio trabajo ({ $error }); expórtalo a un archivo y vuelve a intentarlo

## La página que se muestra tras un fallo (src/crash.rs)

crash-title = rowflow se detuvo por un fallo
crash-lede = Es un fallo de rowflow, no algo que hayas hecho. Cada cambio que hiciste, hasta el último, se guardó en este navegador, así que al recargar recuperas tu trabajo.
crash-fresh-lede = Se detuvo al abrir tu trabajo guardado de esta escena, así que al recargar podría detenerse de nuevo. Empezar la escena de cero aparta ese trabajo en este navegador, donde todavía puedes descargarlo.
crash-reload = Recargar mi trabajo guardado
crash-download = Descargar mi trabajo guardado
crash-fresh = Empezar esta escena de cero
crash-report = Qué salió mal, para un informe de errores

## Las páginas de la app (src/app.rs, src/more.rs)

app-not-found-title = Esa página no existe
app-not-found = Este enlace no corresponde a ninguna escena. Elige una arriba o ve al{" "}
app-not-found-start = inicio
app-not-found-end = .
app-unloaded-title = Esta escena no llegó
app-unloaded = No se pudo descargar su parte de rowflow (por la red o por una nueva versión del sitio). No se perdió nada de lo que hiciste.
app-try-again = Reintentar
more-unloaded = no se pudo descargar su parte de rowflow (por la red o por una nueva versión del sitio)
