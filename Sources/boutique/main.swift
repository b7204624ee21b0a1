print("boutique")
