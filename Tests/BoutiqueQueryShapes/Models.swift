import BoutiqueDB
