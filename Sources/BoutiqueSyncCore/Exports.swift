@_exported import BoutiqueDB
