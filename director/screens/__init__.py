"""The screens: the TV clock (and the same clock on a phone), its announcements, the charts
drawn as SVG, and the host's look for every TV."""
